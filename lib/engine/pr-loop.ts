import { decideEndCycle, decidePullRequestPoll } from '../../commands/pr-loop.js';
import type { RunState } from '../../projections/run-state.js';
import { resolveToken } from '../codehost/config.js';
import { type Budget, loopSeen, readPullRequestState } from '../codehost/pr-state.js';
import type { EngineContext } from './context.js';
import { runCycle } from './pr-cycle.js';
import { endGroup } from '../harness/process-group.js';

// The pull request loop, a process manager: while a deliver step with watch=true stands on its
// pull request, it reads the pull request every prWatchIntervalSeconds (or at once when a person
// asks), records what the read decides (commands/pr-loop.ts: the step ends, a cycle starts, the
// loop stops at its limit) and runs a cycle it just recorded. The cause is on the journal before
// the turn starts, so a restart never takes it up again: a cycle left open by a stopped service is
// ended as interrupted. It backs off until the host's budget is refilled when little is left.

/** below this many requests left, the loop waits for the host's reset */
export const LOW_BUDGET = 100;

/** when to read again: the interval, or the host's reset when the budget runs low */
export const nextReadIn = (intervalMs: number, budget: Budget | null, now: Date): number => {
  if (!budget || budget.remaining >= LOW_BUDGET) return intervalMs;
  return Math.max(intervalMs, Date.parse(budget.resetAt) - now.getTime());
};

const current = (ctx: EngineContext, runId: string, stepId: string): RunState | undefined => {
  const s = ctx.deps.runs.get(runId);
  return s?.lifecycle === 'active' && s.step?.stepId === stepId && s.prWatch?.stepId === stepId ? s : undefined;
};

class Watch {
  private wake: (() => void) | null = null;
  private asked = false;
  private lastProblem = '';
  private cycling = false;
  /** people who asked for a read: answered once it is decided (before any cycle it starts) */
  private waiting: (() => void)[] = [];

  constructor(private readonly ctx: EngineContext, private readonly runId: string, private readonly stepId: string, private readonly abort: AbortController) {}

  /** the next read, decided; a cycle in progress is not waited for (the read follows it) */
  checkNow(): { cycleRunning: boolean; read: Promise<void> } {
    this.asked = true;
    const read = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.wake?.();
    return { cycleRunning: this.cycling, read: this.cycling ? Promise.resolve() : read };
  }

  private static answer(waiting: readonly (() => void)[]): void {
    for (const w of waiting) w();
  }

  async loop(): Promise<void> {
    try {
      while (!this.abort.signal.aborted && current(this.ctx, this.runId, this.stepId)) {
        this.asked = false;
        // only those who asked before this read began are answered by it
        const asked = this.waiting.splice(0);
        const ms = await this.read(asked).catch((err: unknown) => this.problem(String(err)));
        Watch.answer(asked);
        if (!this.asked) await this.sleep(ms);
      }
    } finally {
      Watch.answer(this.waiting.splice(0));
      this.ctx.live.remove(this.stepId);
    }
  }

  // an abort that came during the read (the service stopping) ends the loop at once: a listener
  // added to a signal already aborted would never be called
  private sleep(ms: number): Promise<void> {
    if (this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.abort.signal.removeEventListener('abort', done); this.wake = null; resolve(); };
      const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
      this.abort.signal.addEventListener('abort', done);
      this.wake = done;
    });
  }

  // said once per new problem, so a host that stays down does not fill the log
  private problem(text: string): number {
    if (text !== this.lastProblem) this.ctx.log(this.runId, `pull request loop: ${text}`);
    this.lastProblem = text;
    return this.interval();
  }

  private interval(): number {
    return this.ctx.deps.settings().prWatchIntervalSeconds * 1000;
  }

  private async read(asked: readonly (() => void)[]): Promise<number> {
    const s = current(this.ctx, this.runId, this.stepId);
    const cfg = this.ctx.deps.settings().codeHost;
    if (!s) return 0;
    if (resolveToken(cfg) === null) return this.problem('no code host token is set (Settings, or GH_TOKEN): the pull request is not read');
    const pr = s.prWatch!.pullRequest;
    const [owner, name] = pr.repository.split('/');
    const read = await readPullRequestState(cfg, owner ?? '', name ?? '', pr.number);
    if (read._tag === 'Left') return this.problem(`could not read pull request #${pr.number}: ${read.left.detail}`);
    this.lastProblem = '';
    const after = this.ctx.apply(this.runId, (r) => decidePullRequestPoll(r, { stepId: this.stepId, seen: loopSeen(read.right.state) }));
    this.ctx.deps.pullRequestRead?.(after ?? s, read.right.state);
    const open = after?.prWatch?.open;
    Watch.answer(asked);
    if (!after || !open || open.cycle === s.prWatch?.open?.cycle) return nextReadIn(this.interval(), read.right.budget, this.ctx.deps.now());
    this.cycling = true;
    await runCycle(this.ctx, after, this.stepId, this.abort.signal).finally(() => { this.cycling = false; });
    return nextReadIn(this.interval(), read.right.budget, this.ctx.deps.now());
  }
}

/** starts watching the step's pull request in this process (the engine asks when no watch is live) */
export const watchPullRequest = (ctx: EngineContext, s: RunState, stepId: string): void => {
  const abort = new AbortController();
  const watch = new Watch(ctx, s.runId, stepId, abort);
  ctx.live.add(stepId, { runId: s.runId, abort, send: () => false, checkNow: () => watch.checkNow() });
  ctx.log(s.runId, `watching pull request #${s.prWatch?.pullRequest.number ?? '?'}`);
  void ctx.track(closeOpenCycle(ctx, s, stepId).then(() => watch.loop()));
};

// A cycle the stopped service left open: its CLI may still run (a crash leaves no lifeline), so its
// process group is ended first, as for any step in flight; then the cycle is recorded interrupted.
// Its cause stays recorded, so it is not taken up again.
const closeOpenCycle = async (ctx: EngineContext, s: RunState, stepId: string): Promise<void> => {
  const open = s.prWatch?.open;
  if (!open) return;
  const leader = s.step?.process;
  const ended = leader ? await endGroup(leader) : { processes: 0, gone: true };
  if (ended.processes > 0) ctx.log(s.runId, `ended ${ended.processes} leftover agent process(es) of the pull request loop (process group ${leader!.pid})`);
  const reason = 'the service stopped during this cycle; its cause is recorded, so it is not taken up again';
  ctx.apply(s.runId, (r) => decideEndCycle(r, { stepId, cycle: open.cycle, result: { _tag: 'Interrupted', reason } }));
};
