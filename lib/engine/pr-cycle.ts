import { decideEndCycle, decideThreadsAnswered } from '../../commands/pr-loop.js';
import type { CycleCause, CycleResult } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { pushBranch } from '../codehost/deliver.js';
import { replyToThread, resolveThread } from '../codehost/thread-replies.js';
import { git, gitOk } from '../git/git.js';
import { updateFromBase } from '../git/update-from-base.js';
import type { EngineContext } from './context.js';
import { commitLeftovers } from './deliver-run.js';
import { cyclePrompt } from './pr-cycle-prompt.js';
import { threadSummary } from '../../commands/follow-up.js';
import { loopSession, loopTurn } from './pr-turn.js';

// One cycle of the pull request loop, after its cause was recorded (PullRequestCycleStarted): the
// agent's turn on the cause, what it left committed and pushed (never forced), svc's reply on each
// review thread it answered, then PullRequestCycleEnded. A conflict with the base is first tried as
// a plain merge of origin's base; only a merge that conflicts goes to the agent.

const head = async (dir: string): Promise<string> => (await gitOk(dir, ['rev-parse', 'HEAD'])).trim();

type Merge = { readonly _tag: 'Merged' } | { readonly _tag: 'Nothing' } | { readonly _tag: 'Conflicted'; readonly files: readonly string[] };

const mergeBase = async (dir: string, base: string): Promise<Merge> => {
  const fetched = await git(dir, ['fetch', '--quiet', 'origin', `refs/heads/${base}:refs/remotes/origin/${base}`]);
  if (fetched.code !== 0) throw new Error(`fetching ${base} from origin failed: ${fetched.stderr.trim()}`);
  const u = await updateFromBase(dir, `origin/${base}`, 'merge');
  return u._tag === 'Updated' ? { _tag: 'Merged' } : u._tag === 'UpToDate' ? { _tag: 'Nothing' } : { _tag: 'Conflicted', files: u.files };
};

// svc's reply on each thread, and resolving it when the workflow says so; a thread the host
// refuses is logged and left, the others still answered
const answerThreads = async (ctx: EngineContext, s: RunState, stepId: string, cycle: number, cause: Extract<CycleCause, { _tag: 'Threads' }>, summary: string): Promise<void> => {
  const cfg = ctx.deps.settings().codeHost;
  const replied: string[] = [];
  const resolved: string[] = [];
  for (const t of cause.threads) {
    const r = await replyToThread(cfg, t.id, `svc: ${summary}`);
    if (r._tag === 'Left') { ctx.log(s.runId, `could not reply on review thread ${t.id}: ${r.left.detail}`); continue; }
    replied.push(t.id);
    if (!s.prWatch?.resolveThreads) continue;
    const done = await resolveThread(cfg, t.id);
    if (done._tag === 'Right') resolved.push(t.id);
    else ctx.log(s.runId, `could not resolve review thread ${t.id}: ${done.left.detail}`);
  }
  ctx.apply(s.runId, (r) => decideThreadsAnswered(r, { stepId, cycle, replied, resolved }));
};

const turnAndPush = async (ctx: EngineContext, s: RunState, stepId: string, signal: AbortSignal): Promise<CycleResult> => {
  const open = s.prWatch!.open!;
  const checkout = s.checkouts?.[0];
  if (!checkout) return { _tag: 'Failed', reason: 'the run has no worktree' };
  const before = await head(checkout.directory);
  let conflictFiles: readonly string[] = [];
  let summary = `merged ${open.cause._tag === 'Conflict' ? open.cause.base : 'the base'} without conflicts`;
  if (open.cause._tag === 'Conflict') {
    const merged = await mergeBase(checkout.directory, open.cause.base);
    if (merged._tag === 'Conflicted') conflictFiles = merged.files;
    if (merged._tag === 'Nothing') return { _tag: 'NoChange', summary: `the branch already holds origin/${open.cause.base}` };
  }
  if (open.cause._tag !== 'Conflict' || conflictFiles.length > 0) {
    const session = loopSession(ctx, s);
    const r = await loopTurn(ctx, s, stepId, cyclePrompt(open.cause, { ...(session.resume ? {} : { thread: threadSummary(s) }), conflictFiles }), session, signal);
    if (r.outcome === 'interrupted' || signal.aborted) return { _tag: 'Interrupted', reason: r.summary || 'the turn was stopped' };
    if (r.outcome === 'failure' && r.failure) return { _tag: 'Failed', reason: `the agent's turn failed: ${r.summary}` };
    summary = r.summary;
  }
  await commitLeftovers(checkout.directory, s.runId);
  const after = await head(checkout.directory);
  if (after === before && after === open.cause.headCommit) return { _tag: 'NoChange', summary };
  const pushed = await pushBranch(checkout.directory, checkout.branch);
  if (pushed._tag === 'Left') return { _tag: 'Failed', reason: pushed.left.detail };
  if (open.cause._tag === 'Threads') await answerThreads(ctx, s, stepId, open.cycle, open.cause, summary);
  return { _tag: 'Pushed', headCommit: after, summary };
};

/** runs the open cycle of `s` (just recorded) to its end, which it records */
export const runCycle = async (ctx: EngineContext, s: RunState, stepId: string, signal: AbortSignal): Promise<void> => {
  const cycle = s.prWatch!.open!.cycle;
  ctx.log(s.runId, `pull request loop: cycle ${cycle} started`);
  const result = await turnAndPush(ctx, s, stepId, signal).catch((err: unknown): CycleResult => ({ _tag: 'Failed', reason: err instanceof Error ? err.message : String(err) }));
  ctx.log(s.runId, `pull request loop: cycle ${cycle} ended: ${result._tag}`);
  ctx.apply(s.runId, (r) => decideEndCycle(r, { stepId, cycle, result }));
};
