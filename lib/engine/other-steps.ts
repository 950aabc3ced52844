import { spawn, type ChildProcess } from 'node:child_process';
import { accept } from '../../commands/guards.js';
import { decideFinishStep, decideStartStep } from '../../commands/engine-steps.js';
import type { RunState } from '../../projections/run-state.js';
import type { StepNode } from '../../domain/workflow.js';
import { deliverWatch } from '../workflows/deliver-watch.js';
import { decideWatchPullRequest } from '../../commands/pr-loop.js';
import type { EngineContext } from './context.js';
import { LIFELINE } from '../harness/process.js';
import { openSandbox, planSandbox } from './step-sandbox.js';
import { PREVIEW_URL } from '../../domain/preview.js';

// The steps that are not agent turns: gates and waits are only recorded (the run stands still
// until Resume, or the time, or SkipWait), commands run in the worktree, deliver opens a PR.

const startStep = (ctx: EngineContext, run: RunState, node: StepNode, extra: { endsAt?: string; sandboxed?: boolean; unsandboxed?: string } = {}): string | null => {
  const stepId = ctx.deps.newId('s');
  const ok = ctx.apply(run.runId, (s) => decideStartStep(s, { stepId, node: node.id, kind: node.kind, attempt: s.stepCount + 1, ...extra }));
  return ok ? stepId : null;
};

export const runGateStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  if (startStep(ctx, run, node)) ctx.log(run.runId, `gate ${node.id}: waiting for Resume`);
};

export const runWaitStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const endsAt = new Date(ctx.deps.now().getTime() + (node.durationMs ?? 0)).toISOString();
  if (startStep(ctx, run, node, { endsAt })) ctx.log(run.runId, `wait ${node.id}: until ${endsAt}`);
};

const COMMAND_TIMEOUT_MS = 30 * 60_000;

// Run values reach a command through its environment, never spliced into the command text.
export const commandEnv = (run: RunState, previewUrl?: string | null): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_RUN_ID: run.runId, SVC_GOAL: run.goal, ...(previewUrl ? { SVC_PREVIEW_URL: previewUrl } : {}) };
  for (const [k, v] of Object.entries(run.inputs)) env[`SVC_INPUT_${k.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = v;
  return env;
};

// The one place a shell string runs: a command the workflow's author wrote, in the run's worktree,
// in svc's sandbox where the project and machine allow (under the lifeline there, which bridges
// the sandbox's egress).
export const runCommandStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const plan = planSandbox(ctx, run, 'command');
  const stepId = startStep(ctx, run, node, plan.facts);
  if (!stepId) return;
  const cannot = (summary: string) => void ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary, failure: 'unavailable' }));
  if (plan.choice._tag === 'Unsandboxed' && plan.choice.required) return cannot(`the project requires svc's sandbox, and it cannot start: ${plan.choice.reason}`);
  const previewUrl = ctx.deps.preview?.url(run.runId) ?? null;
  const sandbox = openSandbox(ctx, run, stepId, plan, { tools: 'command', env: commandEnv(run, previewUrl) });
  if (sandbox instanceof Error) return cannot(`svc's sandbox could not be made: ${sandbox.message}`);
  const cwd = run.checkouts?.[0]?.directory ?? '';
  const abort = new AbortController();
  // {{preview.url}} is the one value spliced into the text: svc made it (an http URL of its own
  // origin and the run's id), so it holds nothing a shell reads specially; without a preview it stays
  const text = previewUrl ? (node.command ?? 'false').replaceAll(PREVIEW_URL, previewUrl) : node.command ?? 'false';
  ctx.log(run.runId, `command ${node.id}: ${text}`);
  const shell = { file: 'sh', args: ['-c', text], env: commandEnv(run, previewUrl) };
  const cmd = sandbox ? sandbox.wrap(process.execPath, [LIFELINE, shell.file, ...shell.args], shell.env) : shell;
  let child: ChildProcess;
  try {
    child = spawn(cmd.file, cmd.args, { cwd, env: cmd.env, signal: abort.signal, timeout: COMMAND_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    // spawn throws on what it cannot take (a NUL byte in a goal or input stored before the doors
    // refused it): the step fails, the server goes on
    void sandbox?.close();
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: `command failed to run: ${err instanceof Error ? err.message : String(err)}` }));
    return;
  }
  ctx.live.add(stepId, { runId: run.runId, abort, send: () => false });
  const out = (b: Buffer) => { for (const line of b.toString('utf8').split('\n')) if (line) ctx.deps.logs.write(run.runId, 'agent', line); };
  child.stdout!.on('data', out);
  child.stderr!.on('data', out);
  const done = (outcome: 'success' | 'failure' | 'interrupted', summary: string) => {
    ctx.live.remove(stepId);
    void sandbox?.close();
    ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome, summary }));
  };
  child.on('error', (err) => done(abort.signal.aborted ? 'interrupted' : 'failure', `command failed to run: ${err.message}`));
  void ctx.track(new Promise((resolve) => child.on('close', resolve)));
  child.on('close', (code, signal) => {
    if (abort.signal.aborted) return done('interrupted', 'command stopped');
    done(code === 0 ? 'success' : 'failure', signal ? `command ended by ${signal}` : `command exited with ${code}`);
  });
};

// A watching step that was interrupted (paused, the service stopped before its watch began)
// watches the pull request it opened again, rather than opening a second one.
const watchedBefore = (run: RunState, node: StepNode) =>
  run.prWatch && run.previous?.node === node.id && run.previous.outcome === 'interrupted' ? run.prWatch : undefined;

export const runDeliverStep = (ctx: EngineContext, run: RunState, node: StepNode): void => {
  const stepId = startStep(ctx, run, node);
  if (!stepId) return;
  const watch = deliverWatch(node);
  const before = watch ? watchedBefore(run, node) : undefined;
  if (watch && before) return void ctx.apply(run.runId, (s) => decideWatchPullRequest(s, { stepId, pullRequest: before.pullRequest, ...watch, again: true }));
  ctx.live.add(stepId, { runId: run.runId, abort: new AbortController(), send: () => false });
  void ctx.track(ctx.deps.deliver(run, node).then(
    (pr) => {
      ctx.live.remove(stepId);
      // a watching step stays open on its pull request: the engine starts the watch (lib/engine/pr-loop.ts)
      if (watch) return void ctx.apply(run.runId, (s) => decideWatchPullRequest(s, { stepId, pullRequest: pr, ...watch }));
      ctx.apply(run.runId, (s) => (s.step?.stepId === stepId ? accept({ type: 'PullRequestDelivered', data: { stepId, pullRequest: pr } }) : accept()));
      ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'success', summary: `pull request ${pr.url}` }));
    },
    (err: unknown) => {
      ctx.live.remove(stepId);
      ctx.apply(run.runId, (s) => decideFinishStep(s, { stepId, outcome: 'failure', summary: `delivery failed: ${err instanceof Error ? err.message : String(err)}` }));
    },
  ));
};
