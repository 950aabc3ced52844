import { accept, nothing } from '../../commands/guards.js';
import type { RunState } from '../../projections/run-state.js';
import { findNode } from '../../domain/workflow.js';
import type { ToolAccess } from '../../domain/workflow.js';
import type { TurnResult } from '../harness/adapter.js';
import type { EngineContext } from './context.js';
import { RUN_TOOLS_GUIDE } from './prompt.js';
import { sessionTotalsOf } from './continued.js';
import { recordTurnUsage } from './turn-usage.js';

// One agent turn of the pull request loop, inside the watching deliver step: it resumes the run's
// last agent session (the loop's own once it has one), on that session's CLI, so the agent keeps
// what it knew of the work; a run with no session to resume starts one (the prompt then says what
// the run is about).

export interface LoopSession {
  readonly harness: NonNullable<RunState['lastSession']>['harness'];
  readonly resume?: string;
  readonly tools: ToolAccess;
  readonly model?: string;
}

/** the CLI, session and tool access a loop turn uses */
export const loopSession = (ctx: EngineContext, s: RunState): LoopSession => {
  const deliverNode = s.step?.node ?? '';
  const agentNode = s.lastSession ? findNode(s.workflow, s.lastSession.node) : undefined;
  const settings = agentNode ? ctx.deps.stepSettings(s, agentNode) : undefined;
  const harness = s.lastSession?.harness ?? settings?.harness.value ?? ctx.deps.settings().defaultHarness ?? 'claude';
  const resume = s.sessions[deliverNode] ?? s.lastSession?.sessionId;
  return { harness, ...(resume ? { resume } : {}), tools: (settings?.tools.value as ToolAccess | undefined) ?? 'edit', ...(settings?.model.value ? { model: settings.model.value } : {}) };
};

export const loopTurn = async (ctx: EngineContext, s: RunState, stepId: string, prompt: string, session: LoopSession, signal: AbortSignal): Promise<TurnResult> => {
  const { deps } = ctx;
  const adapter = deps.harness(session.harness);
  if (!adapter) return { outcome: 'failure', summary: `harness ${session.harness} is not configured`, failure: 'unavailable' };
  const tools = deps.runTools(s.runId, stepId);
  const mine = (r: RunState) => r.step?.stepId === stepId;
  const totals = session.resume ? sessionTotalsOf(s, session.resume) : undefined;
  try {
    const turn = adapter.startTurn({
      runId: s.runId, stepId, cwd: s.checkouts?.[0]?.directory ?? '', prompt, systemPrompt: RUN_TOOLS_GUIDE,
      ...(session.model ? { model: session.model } : {}), ...(session.resume ? { resumeSession: session.resume } : {}), ...(totals ? { sessionTotals: totals } : {}),
      tools: session.tools, runTools: { url: tools.url, token: tools.token }, env: {},
      watchdogMs: deps.settings().watchdogSeconds * 1000, signal,
      onLog: (line) => deps.logs.write(s.runId, 'agent', line.text),
      onActivity: (a) => void deps.logs.activity.record(s.runId, stepId, a, deps.now().toISOString()),
      onMessage: (text) => ctx.apply(s.runId, (r) => (mine(r) ? accept({ type: 'AgentReplied', data: { stepId, text } }) : nothing())),
      onSession: (sessionId) => ctx.apply(s.runId, (r) => (mine(r) ? accept({ type: 'StepSessionStarted', data: { stepId, sessionId } }) : nothing())),
      onProcess: (p) => ctx.apply(s.runId, (r) => (mine(r) ? accept({ type: 'StepProcessStarted', data: { stepId, ...p } }) : nothing())),
    });
    const r = await turn.result.catch((err: unknown): TurnResult => ({ outcome: 'failure', summary: `the harness failed: ${String(err)}`, failure: 'error' }));
    // each loop turn is one more turn of the deliver step: recorded as any agent turn's usage
    const turns = ctx.deps.runs.get(s.runId)?.usage?.steps.find((st) => st.stepId === stepId)?.turns ?? 0;
    const of = { runId: s.runId, stepId, node: s.step?.node ?? '', harness: session.harness, ...(session.model ? { model: session.model } : {}), ...(session.resume ? { sessionId: session.resume } : {}) };
    recordTurnUsage(ctx, of, turns + 1, r);
    return r;
  } finally {
    tools.revoke();
    deps.logs.activity.endStep(s.runId, stepId, 'the loop\'s turn ended before this call finished', deps.now().toISOString());
  }
};
