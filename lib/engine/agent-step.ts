import { decideFinishStep, decideStartStep } from '../../commands/engine-steps.js';
import { accept, nothing } from '../../commands/guards.js';
import type { RunState } from '../../projections/run-state.js';
import type { TurnResult } from '../harness/adapter.js';
import type { StepNode } from '../workflows/model.js';
import type { EngineContext } from './context.js';
import { RUN_TOOLS_GUIDE, turnPrompt } from './prompt.js';

// One agent step: one turn of the harness CLI in the run's worktree. The outcome the agent reports
// through report_outcome wins over the CLI's own end-of-turn result.

const workdir = (s: RunState): string => s.checkouts?.[0]?.directory ?? '';

const finish = (ctx: EngineContext, runId: string, stepId: string, r: TurnResult): void => {
  const reported = ctx.deps.runs.get(runId)?.step;
  const mine = reported?.stepId === stepId ? reported.reported : undefined;
  const outcome = r.outcome === 'interrupted' ? 'interrupted' : mine?.outcome ?? r.outcome;
  const summary = r.outcome !== 'interrupted' && mine ? mine.summary : r.summary;
  const cost = r.costUsd === undefined ? {} : { costUsd: r.costUsd };
  ctx.apply(runId, (s) => decideFinishStep(s, { stepId, outcome, summary: summary || outcome, ...cost, ...(r.failure ? { failure: r.failure } : {}) }));
};

export const runAgentStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const { deps } = ctx;
  const settings = deps.stepSettings(run, node);
  const harness = settings.harness.value;
  const resumeSession = run.previous?.node === node.id && run.previous.outcome === 'interrupted' ? run.sessions[node.id] : undefined;
  const prompt = turnPrompt(deps, run, node, resumeSession !== undefined);
  const stepId = deps.newId('s');
  const started = ctx.apply(run.runId, (s) => decideStartStep(s, {
    stepId, node: node.id, kind: 'agent', attempt: s.stepCount + 1, harness,
    ...(settings.model.value ? { model: settings.model.value } : {}),
    ...(resumeSession ? { resumeSession } : {}),
    messages: s.held.map((m) => m.id),
  }));
  if (!started) return;
  const adapter = deps.harness(harness);
  if (!adapter) {
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: `harness ${harness} is not configured`, failure: 'unavailable' }));
    return;
  }
  const persona = settings.persona.value ? deps.persona(run, settings.persona.value) : undefined;
  const tools = deps.runTools(run.runId, stepId);
  const abort = new AbortController();
  ctx.log(run.runId, `step ${node.id} started on ${harness}${resumeSession ? ' (resuming its session)' : ''}`);
  const turn = adapter.startTurn({
    runId: run.runId, stepId, cwd: workdir(started), prompt,
    systemPrompt: [persona?.prompt, RUN_TOOLS_GUIDE].filter(Boolean).join('\n\n'),
    ...(settings.model.value ? { model: settings.model.value } : {}),
    tools: settings.tools.value as 'read-only' | 'edit' | 'full',
    ...(resumeSession ? { resumeSession } : {}),
    runTools: { url: tools.url, token: tools.token },
    env: {}, watchdogMs: deps.settings().watchdogSeconds * 1000, signal: abort.signal,
    onLog: (line) => deps.logs.write(run.runId, 'agent', line.text),
    onMessage: (text) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'AgentReplied', data: { stepId, text } }) : nothing())),
    onSession: (sessionId) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'StepSessionStarted', data: { stepId, sessionId } }) : nothing())),
    onProcess: (p) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'StepProcessStarted', data: { stepId, ...p } }) : nothing())),
  });
  ctx.live.add(stepId, { runId: run.runId, abort, send: (text) => turn.send(text), hold: (held) => turn.holdWatchdog?.(held) });
  void ctx.track(turn.result
    .catch((err: unknown): TurnResult => ({ outcome: 'failure', summary: `the harness failed: ${String(err)}`, failure: 'error' }))
    .then((r) => {
      ctx.live.remove(stepId);
      tools.revoke();
      ctx.log(run.runId, `step ${node.id} turn ended: ${r.outcome}${r.failure ? ` (${r.failure})` : ''}`);
      finish(ctx, run.runId, stepId, r);
    }));
};
