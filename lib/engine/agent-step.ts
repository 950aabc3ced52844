import { decideContinueTurn, decideFinishStep, decideStartStep, meantForTurn } from '../../commands/engine-steps.js';
import { accept, nothing } from '../../commands/guards.js';
import type { RunState } from '../../projections/run-state.js';
import type { Turn, TurnInput, TurnResult } from '../harness/adapter.js';
import type { SessionTotals } from '../../domain/harness.js';
import type { StepNode } from '../../domain/workflow.js';
import type { EngineContext } from './context.js';
import { continuedSession, continuedThread, sessionTotalsOf } from './continued.js';
import { recordTurnUsage, type TurnOf } from './turn-usage.js';
import { continuationPrompt, RUN_TOOLS_GUIDE, turnPrompt } from './prompt.js';
import { decideQuotaSwitch } from '../../commands/quota.js';
import { fallbackFor, quotaFacts, recordWindow } from './quota-gate.js';
import { openSandbox, planSandbox } from './step-sandbox.js';

// One agent step: one turn of the harness CLI in the run's worktree. Its end is recorded by
// decideFinishStep, which lets the outcome the agent reported (report_outcome) beat the CLI's result.

const workdir = (s: RunState): string => s.checkouts?.[0]?.directory ?? '';

const finish = (ctx: EngineContext, runId: string, stepId: string, r: TurnResult): void => {
  const cost = r.costUsd === undefined ? {} : { costUsd: r.costUsd };
  const quota = (s: RunState) => (r.failure === 'quota' ? { quota: quotaFacts(ctx.deps, s, r) } : {});
  const after = ctx.apply(runId, (s) => decideFinishStep(s, { stepId, outcome: r.outcome, summary: r.summary, ...cost, ...(r.failure ? { failure: r.failure } : {}), ...quota(s) }));
  if (after) recordWindow(ctx.deps, after, r);
};

export const runAgentStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const { deps } = ctx;
  const settings = deps.stepSettings(run, node);
  const harness = settings.harness.value;
  const interrupted = run.previous?.node === node.id && run.previous.outcome === 'interrupted' ? run.sessions[node.id] : undefined;
  const continued = interrupted ? undefined : continuedSession(run, harness);
  const resumeSession = interrupted ?? continued?.sessionId;
  const prompt = turnPrompt(deps, run, node, interrupted !== undefined, continuedThread(run, resumeSession !== undefined));
  const fallback = deps.windows.limit(harness) ? fallbackFor(deps, run, harness) : undefined;
  if (fallback && ctx.apply(run.runId, (s) => decideQuotaSwitch(s, { from: harness, to: fallback }))) {
    ctx.log(run.runId, `step ${node.id}: ${harness} is out of quota; switching to ${fallback} before the turn`);
    return;
  }
  const stepId = deps.newId('s');
  const plan = planSandbox(ctx, run, harness);
  const started = ctx.apply(run.runId, (s) => decideStartStep(s, {
    stepId, node: node.id, kind: 'agent', attempt: s.stepCount + 1, harness,
    ...(settings.model.value ? { model: settings.model.value } : {}),
    ...(resumeSession ? { resumeSession } : {}),
    messages: s.held.map((m) => m.id),
    ...plan.facts,
  }));
  if (!started) return;
  const adapter = deps.harness(harness);
  const cannot = (summary: string) => void ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary, failure: 'unavailable' }));
  if (!adapter) return cannot(`harness ${harness} is not configured`);
  if (plan.choice._tag === 'Unsandboxed' && plan.choice.required) return cannot(`the project requires svc's sandbox, and it cannot start: ${plan.choice.reason}`);
  const persona = settings.persona.value ? deps.persona(run, settings.persona.value) : undefined;
  const tools = deps.runTools(run.runId, stepId);
  const sandbox = openSandbox(ctx, started, stepId, plan, { tools: settings.tools.value as 'read-only' | 'edit' | 'full', runTools: tools.url, env: process.env, ...(adapter.bin ? { program: adapter.bin } : {}) });
  if (sandbox instanceof Error) return (tools.revoke(), cannot(`svc's sandbox could not be made: ${sandbox.message}`));
  const abort = new AbortController();
  ctx.log(run.runId, `step ${node.id} started on ${harness}${resumeSession ? ' (resuming its session)' : ''}`);
  const base: Omit<TurnInput, 'prompt'> = {
    runId: run.runId, stepId, cwd: workdir(started),
    systemPrompt: [persona?.prompt, RUN_TOOLS_GUIDE].filter(Boolean).join('\n\n'),
    ...(settings.model.value ? { model: settings.model.value } : {}),
    tools: settings.tools.value as 'read-only' | 'edit' | 'full',
    runTools: { url: tools.url, token: tools.token },
    env: {}, watchdogMs: deps.settings().watchdogSeconds * 1000, signal: abort.signal, now: () => deps.now(),
    onLog: (line) => deps.logs.write(run.runId, 'agent', line.text),
    onActivity: (a) => void deps.logs.activity.record(run.runId, stepId, a, deps.now().toISOString()),
    onMessage: (text) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'AgentReplied', data: { stepId, text } }) : nothing())),
    onSession: (sessionId) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'StepSessionStarted', data: { stepId, sessionId } }) : nothing())),
    onProcess: (p) => ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'StepProcessStarted', data: { stepId, ...p } }) : nothing())),
    ...(sandbox ? { sandbox } : {}),
  };
  const totals = resumeSession ? sessionTotalsOf(run, resumeSession) : undefined;
  let current: Turn;
  try {
    current = adapter.startTurn({ ...base, prompt, ...(resumeSession ? { resumeSession } : {}), ...(totals ? { sessionTotals: totals } : {}), ...(continued?.fork ? { forkSession: true } : {}) });
  } catch (err) {
    // spawn throws on what it cannot take (a NUL byte in a prompt stored before the doors refused
    // it): the step fails, the server goes on
    tools.revoke();
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: `the harness could not start: ${String(err)}`, failure: 'error' }));
    return;
  }
  ctx.live.add(stepId, { runId: run.runId, abort, send: (text) => current.send(text), hold: (held) => current.holdWatchdog?.(held) });
  const next = (p: string, session: string, totals?: SessionTotals): Turn => (current = adapter.startTurn({ ...base, prompt: p, resumeSession: session, ...(totals ? { sessionTotals: totals } : {}) }));
  const of: TurnOf = { runId: run.runId, stepId, node: node.id, harness, ...(settings.model.value ? { model: settings.model.value } : {}), ...(resumeSession ? { sessionId: resumeSession } : {}) };
  const step: StepTurns = { of, abort: abort.signal, next };
  void ctx.track(runTurns(ctx, step, current).then((r) => {
    ctx.live.remove(stepId);
    tools.revoke();
    void sandbox?.close();
    ctx.log(run.runId, `step ${node.id} turn ended: ${r.outcome}${r.failure ? ` (${r.failure})` : ''}`);
    deps.logs.activity.endStep(run.runId, stepId, `the turn ended (${r.outcome}) before this call finished`, deps.now().toISOString());
    if (r.failure === 'unavailable') deps.recheckHarness?.(harness);
    finish(ctx, run.runId, stepId, r);
  }));
};

interface StepTurns {
  readonly of: TurnOf;
  readonly abort: AbortSignal;
  /** start the next turn of the step's session with this prompt; totals: what its last turn reported */
  next(prompt: string, session: string, totals?: SessionTotals): Turn;
}

const settle = (turn: Turn | { readonly result: Promise<TurnResult> }): Promise<TurnResult> =>
  turn.result.catch((err: unknown): TurnResult => ({ outcome: 'failure', summary: `the harness failed: ${String(err)}`, failure: 'error' }));

// a turn that could not even start (spawn threw) settles as a failed one
const startedOrFailed = (start: () => Turn): Turn | { readonly result: Promise<TurnResult> } => {
  try {
    return start();
  } catch (err) {
    return { result: Promise.reject(err) };
  }
};

const addCost = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

// The step's turns: the first, then one more for each batch of Resume messages that arrived while a
// turn ran and its CLI could not take them (codex, opencode; claude once its turn has ended). A turn
// that was stopped or failed in the CLI itself is not continued: its messages stay held for the
// step's next turn, or are reported undelivered if the run ends first. Each turn reports its own
// cost (given the session totals the last one reported), recorded as UsageRecorded as it ends, so
// the step's cost is their sum. A step that resumes a session (an interrupted step, a follow-up's
// first turn) is given the totals last recorded for it, so it counts only its own turn.
const runTurns = async (ctx: EngineContext, step: StepTurns, first: Turn): Promise<TurnResult> => {
  const { runId, stepId, node } = step.of;
  let r = await settle(first);
  let turn = 1;
  recordTurnUsage(ctx, step.of, turn, r);
  for (;;) {
    if (r.outcome === 'interrupted' || r.failure || step.abort.aborted) return r;
    const s = ctx.deps.runs.get(runId);
    const pending = s ? meantForTurn(s, stepId) : [];
    const session = r.sessionId ?? s?.sessions[node];
    if (pending.length === 0 || !session || !ctx.apply(runId, (st) => decideContinueTurn(st, { stepId }))) return r;
    ctx.log(runId, `step ${node}: continuing the session with ${pending.length} message(s) sent during the turn`);
    const cost = r.costUsd;
    const totals = r.sessionTotals;
    r = await settle(startedOrFailed(() => step.next(continuationPrompt(pending), session, totals)));
    recordTurnUsage(ctx, { ...step.of, sessionId: session }, ++turn, r);
    const total = addCost(cost, r.costUsd);
    if (total !== undefined) r = { ...r, costUsd: total };
    if (!r.sessionTotals && totals) r = { ...r, sessionTotals: totals };
  }
};
