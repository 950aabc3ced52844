import { isLeft, right } from 'fp-ts/lib/Either.js';
import { decideChecksFailed } from '../../commands/pr-checks-failed.js';
import type { RunState } from '../../projections/run-state.js';
import { resolveToken } from '../codehost/config.js';
import { githubClient } from '../codehost/github.js';
import { runStream } from '../state/run-stream.js';
import type { ServiceCore } from './core.js';

// The source of the supervisors' "checks failed" wake: while the live supervisors run, each
// delivered pull request of a run whose owner wants that wake is read from the code host every
// TriggerPollInterval seconds (the code-host poll the trigger rules use too). Failing checks on
// a head commit not yet recorded failing become the run event PullRequestChecksFailed, which the
// agent loop turns into a wake. Closed and merged pull requests are not read again.

/** pull requests read per poll at most, newest runs first: a poll stays a handful of requests */
const PER_POLL = 50;

const prKey = (runId: string, repository: string, number: number): string => `${runId} ${repository}#${number}`;

export class PullRequestChecksWatch {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private polling: Promise<void> = Promise.resolve();
  /** the head commit last recorded failing, per run and pull request (read from the run once) */
  private readonly lastFailed = new Map<string, string | undefined>();
  private readonly finished = new Set<string>();

  constructor(private readonly core: ServiceCore) {}

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
        .finally(() => this.next(this.core.settings.current.triggerPollSeconds * 1000));
    }, ms);
    this.timer.unref();
  }

  private watched(): RunState[] {
    const sups = this.core.supervisors;
    return [...this.core.runs.all()]
      .filter((r) => !r.archived && r.pullRequests.length > 0)
      .filter((r) => {
        const pr = r.pullRequests[r.pullRequests.length - 1]!;
        if (this.finished.has(prKey(r.runId, pr.repository, pr.number))) return false;
        const owner = sups.ownerOf(r);
        return owner !== null && sups.get(owner)?.settings.wakeOn.checksFailed === true;
      })
      .sort((a, b) => (a.runId < b.runId ? 1 : -1))
      .slice(0, PER_POLL);
  }

  private recordedFailure(runId: string, key: string, number: number, repository: string): string | undefined {
    if (!this.lastFailed.has(key)) {
      let last: string | undefined;
      for (const e of this.core.journal.read(runStream(runId))) {
        const d = e.data as { pullRequest?: { repository?: string; number?: number }; headCommit?: string };
        if (e.type === 'PullRequestChecksFailed' && d.pullRequest?.repository === repository && d.pullRequest.number === number) last = d.headCommit;
      }
      this.lastFailed.set(key, last);
    }
    return this.lastFailed.get(key);
  }

  private async poll(): Promise<void> {
    const cfg = this.core.settings.current.codeHost;
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
      const event = decideChecksFailed(pr, read.right, this.recordedFailure(run.runId, key, pr.number, pr.repository));
      if (!event) continue;
      const r = this.core.runs.transact(run.runId, () => right([event]), { at: this.core.now().toISOString(), onStale: 'refuse' });
      if (!isLeft(r) && r.right._tag === 'Appended') this.lastFailed.set(key, event.data.headCommit);
    }
  }
}
