import type { AutoMergeSetting } from '../../commands/auto-merge.js';
import { decideChecksFailed } from '../../commands/pr-checks-failed.js';
import { considerAutoMerge } from './auto-merge.js';
import type { RunState } from '../../projections/run-state.js';
import { resolveToken } from '../codehost/config.js';
import { githubClient } from '../codehost/github.js';
import type { RecordedRunEvent } from '../../journal/typed-subscribe.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { Settings } from '../../domain/settings.js';

// The source of the supervisors' "checks failed" wake: while the live supervisors run, each
// delivered pull request of a run whose owner wants that wake is read from the code host every
// TriggerPollInterval seconds (the code-host poll the trigger rules use too). Failing checks on
// a head commit not yet recorded failing become the run event PullRequestChecksFailed, which the
// agent loop turns into a wake. Closed and merged pull requests are not read again.

/** pull requests read per poll at most, newest runs first: a poll stays a handful of requests */
const PER_POLL = 50;

/** what the watch needs, and no more: lib/root/supervisor-loop.ts builds it from the service's parts */
export interface ChecksWatchDeps {
  settings(): Settings;
  runs(): Iterable<RunState>;
  /** whether the supervisor that owns the run wants to be woken when its checks fail */
  wantsChecksWake(run: RunState): boolean;
  /** the run's recorded events, oldest first */
  history(runId: string): readonly RecordedRunEvent[];
  /** appends to the run; false when it moved meanwhile (asked again next poll) */
  record(runId: string, event: RunEvent): boolean;
  /** the run's project's auto-merge setting, null when off (lib/engine/auto-merge.ts) */
  autoMergeOf?(run: RunState): AutoMergeSetting | null;
}

const prKey = (runId: string, repository: string, number: number): string => `${runId} ${repository}#${number}`;

export class PullRequestChecksWatch {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private polling: Promise<void> = Promise.resolve();
  /** the head commit last recorded failing, per run and pull request (read from the run once) */
  private readonly lastFailed = new Map<string, string | undefined>();
  private readonly finished = new Set<string>();

  constructor(private readonly deps: ChecksWatchDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.next(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }

  private next(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll()
        .catch((err: unknown) => console.error('pull request checks poll failed', err))
        .finally(() => this.next(this.deps.settings().triggerPollSeconds * 1000));
    }, ms);
    this.timer.unref();
  }

  private autoMergeOf(run: RunState): AutoMergeSetting | null {
    return this.deps.autoMergeOf?.(run) ?? null;
  }

  private watched(): RunState[] {
    return [...this.deps.runs()]
      .filter((r) => !r.archived && r.pullRequests.length > 0)
      .filter((r) => {
        const pr = r.pullRequests[r.pullRequests.length - 1]!;
        return !this.finished.has(prKey(r.runId, pr.repository, pr.number)) && (this.deps.wantsChecksWake(r) || this.autoMergeOf(r) !== null);
      })
      .sort((a, b) => (a.runId < b.runId ? 1 : -1))
      .slice(0, PER_POLL);
  }

  private recordedFailure(runId: string, key: string, number: number, repository: string): string | undefined {
    if (!this.lastFailed.has(key)) {
      let last: string | undefined;
      for (const e of this.deps.history(runId)) {
        if (e.type === 'PullRequestChecksFailed' && e.data.pullRequest.repository === repository && e.data.pullRequest.number === number) last = e.data.headCommit;
      }
      this.lastFailed.set(key, last);
    }
    return this.lastFailed.get(key);
  }

  private async poll(): Promise<void> {
    const cfg = this.deps.settings().codeHost;
    if (resolveToken(cfg) === null) return; // no code host set up: nothing to ask
    const client = githubClient(cfg);
    for (const run of this.watched()) {
      if (this.stopped) return;
      const pr = run.pullRequests[run.pullRequests.length - 1]!;
      const [owner, name] = pr.repository.split('/');
      if (!owner || !name) continue;
      const read = await client.readPullRequest(owner, name, pr.number);
      if (read._tag === 'Left') continue; // the host failed or refused: asked again next poll
      const key = prKey(run.runId, pr.repository, pr.number);
      if (read.right.state !== 'OPEN') this.finished.add(key);
      await considerAutoMerge({ ...this.deps, config: cfg }, run.runId, pr, read.right, this.autoMergeOf(run));
      if (!this.deps.wantsChecksWake(run)) continue;
      const event = decideChecksFailed(pr, read.right, this.recordedFailure(run.runId, key, pr.number, pr.repository));
      if (!event) continue;
      if (this.deps.record(run.runId, event)) this.lastFailed.set(key, event.data.headCommit);
    }
  }
}
