import { decideFinishStep, decideStartStep } from '../../commands/engine-steps.js';
import { accept, nothing } from '../../commands/guards.js';
import type { RunState } from '../../projections/run-state.js';
import type { HarnessAdapter, Turn, TurnInput, TurnResult } from '../harness/adapter.js';
import type { SessionTotals } from '../../domain/harness.js';
import type { HarnessName, StepNode } from '../../domain/workflow.js';
import type { EngineContext } from './context.js';
import { continuedSession, continuedThread, sessionTotalsOf } from './continued.js';
import type { TurnOf } from './turn-usage.js';
import { RUN_TOOLS_GUIDE, turnPrompt } from './prompt.js';
import { decideQuotaSwitch } from '../../commands/quota.js';
import { fallbackFor, quotaFacts, recordWindow } from './quota-gate.js';
import { openSandbox, planSandbox, type StepSandboxPlan } from './step-sandbox.js';
import { runTurns } from './step-turns.js';

// One agent step: one turn of the harness CLI in the run's worktree (and more of the same session:
// step-turns.ts). Its end is recorded by decideFinishStep, which lets the outcome the agent
// reported (report_outcome) beat the CLI's result.

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
  const totals = resumeSession ? sessionTotalsOf(run, resumeSession) : undefined;
  drive(ctx, started, node, { stepId, harness, plan, ...(resumeSession ? { session: resumeSession } : {}) },
    (base) => ({ ...base, prompt, ...(resumeSession ? { resumeSession } : {}), ...(totals ? { sessionTotals: totals } : {}), ...(continued?.fork ? { forkSession: true } : {}) }));
};

/**
 * A step found in flight after a restart, with its question still open: its CLI went with the old
 * process, so no turn runs, and the run stays Question. The step waits for the answer here and
 * then resumes its session with it (step-turns.ts). False when there is no session to resume.
 */
export const resumeAskingStep = (ctx: EngineContext, s: RunState, node: StepNode): boolean => {
  const step = s.step;
  const session = s.sessions[node.id];
  if (!step || step.kind !== 'agent' || !step.harness || !session || s.question?.stepId !== step.stepId) return false;
  ctx.log(s.runId, `step ${node.id} was waiting for an answer when the service stopped; its session resumes once the question is answered`);
  drive(ctx, s, node, { stepId: step.stepId, harness: step.harness, plan: planSandbox(ctx, s, step.harness), session }, null);
  return true;
};

/**
 * A step found in flight after a restart that runs on a worker (the service was killed, the worker
 * was not): its turn goes on there, and the hub takes it up rather than running it again; a turn
 * whose result the hub recorded before it was killed ends the step with that result. False
 * when the journal has no such dispatch (the step is then recorded interrupted, as a local one).
 */
export const takeUpRemoteStep = (ctx: EngineContext, s: RunState, node: StepNode): boolean => {
  const step = s.step;
  const remote = step?.kind === 'agent' && step.harness ? ctx.deps.takeUp?.(s, step.harness, step.stepId) : undefined;
  if (!step?.harness || !remote) return false;
  ctx.log(s.runId, remote.ended
    ? `step ${node.id}: its result came back from worker ${remote.workerId} before the service stopped; the step ends with it`
    : `step ${node.id} was running on worker ${remote.workerId} when the service stopped; its turn goes on there`);
  const session = s.sessions[node.id];
  drive(ctx, s, node, { stepId: step.stepId, harness: step.harness, plan: planSandbox(ctx, s, step.harness), remote, ...(session ? { session } : {}) }, (base) => ({ ...base, prompt: '' }));
  return true;
};

interface Launch {
  readonly stepId: string;
  readonly harness: HarnessName;
  readonly plan: StepSandboxPlan;
  /** the session the step resumes, if any */
  readonly session?: string;
  /** a turn taken up on the worker it runs on (takeUpRemoteStep) */
  readonly remote?: { readonly adapter: HarnessAdapter; readonly workerId: string; readonly turn?: number };
}

// Opens what the step's turns need (tool token, sandbox), starts the first turn (none: the step
// waits for its open question's answer first) and records the step's end when its turns are over.
const drive = (ctx: EngineContext, run: RunState, node: StepNode, l: Launch, first: ((base: Omit<TurnInput, 'prompt'>) => TurnInput) | null): void => {
  const { deps } = ctx;
  const { stepId, harness, plan } = l;
  const settings = deps.stepSettings(run, node);
  // a worker runs the turn in its own folder and sandbox: the hub opens neither for it
  const remote = l.remote ?? deps.remote?.(run, harness);
  const adapter = remote?.adapter ?? deps.harness(harness);
  const cannot = (summary: string) => void ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary, failure: 'unavailable' }));
  if (!adapter) return cannot(`harness ${harness} is not configured`);
  if (!remote && plan.choice._tag === 'Unsandboxed' && plan.choice.required) return cannot(`the project requires svc's sandbox, and it cannot start: ${plan.choice.reason}`);
  const persona = settings.persona.value ? deps.persona(run, settings.persona.value) : undefined;
  const tools = deps.runTools(run.runId, stepId);
  const sandbox = remote ? undefined : openSandbox(ctx, run, stepId, plan, { tools: settings.tools.value as 'read-only' | 'edit' | 'full', runTools: tools.url, env: process.env, ...(adapter.bin ? { program: adapter.bin } : {}) });
  if (sandbox instanceof Error) return (tools.revoke(), cannot(`svc's sandbox could not be made: ${sandbox.message}`));
  const abort = new AbortController();
  // a stopped step's sandbox goes with it, even when its turn is slow to settle (svc stopping)
  abort.signal.addEventListener('abort', () => void sandbox?.close(), { once: true });
  if (first && !l.remote) ctx.log(run.runId, `step ${node.id} started on ${harness}${remote ? ` on worker ${remote.workerId}` : ''}${l.session ? ' (resuming its session)' : ''}`);
  const base: Omit<TurnInput, 'prompt'> = {
    runId: run.runId, stepId, cwd: workdir(run),
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
  let current: Turn | null = null;
  try {
    current = first ? adapter.startTurn(first(base)) : null;
  } catch (err) {
    // spawn throws on what it cannot take (a NUL byte in a prompt stored before the doors refused
    // it): the step fails, the server goes on
    tools.revoke();
    void sandbox?.close();
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: `the harness could not start: ${String(err)}`, failure: 'error' }));
    return;
  }
  // between turns (waiting for an answer) nothing takes a message mid-turn: it is held for the next
  ctx.live.add(stepId, { runId: run.runId, abort, send: (text) => current?.send(text) ?? false, hold: (held) => current?.holdWatchdog?.(held) });
  const next = (p: string, session: string, totals?: SessionTotals): Turn => (current = adapter.startTurn({ ...base, prompt: p, resumeSession: session, ...(totals ? { sessionTotals: totals } : {}) }));
  const of: TurnOf = { runId: run.runId, stepId, node: node.id, harness, ...(settings.model.value ? { model: settings.model.value } : {}), ...(l.session ? { sessionId: l.session } : {}) };
  const before = l.remote?.turn ? { before: l.remote.turn - 1 } : {};
  void ctx.track(runTurns(ctx, { of, abort: abort.signal, next, ...before, ...(l.session ? { session: l.session } : {}) }, current).then((r) => {
    ctx.live.remove(stepId);
    tools.revoke();
    void sandbox?.close();
    ctx.log(run.runId, `step ${node.id} turn ended: ${r.outcome}${r.failure ? ` (${r.failure})` : ''}`);
    deps.logs.activity.endStep(run.runId, stepId, `the turn ended (${r.outcome}) before this call finished`, deps.now().toISOString());
    if (r.failure === 'unavailable') deps.recheckHarness?.(harness);
    finish(ctx, run.runId, stepId, r);
  }));
};
