import { type AutoMergeDecided, type AutoMergeSetting, decideAutoMerge } from '../../commands/auto-merge.js';
import type { RecordedRunEvent } from '../../journal/typed-subscribe.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { CodeHostConfig } from '../codehost/config.js';
import { mergeOnHost, readMergeTarget } from '../codehost/merge.js';
import type { PullRequestView } from '../../domain/pull-request.js';
import type { PullRequestRef } from '../../domain/runs.js';

// Auto-merge, called by the pull request poll (lib/engine/pr-checks-watch.ts) with what the code
// host just said of a run's newest pull request. The decision (commands/auto-merge.ts) is
// recorded before any merge is asked for; a merge carries the head the decision used, so a push
// after the decision makes the host refuse rather than merge unseen work. A host refusal is
// recorded as a refusal with the host's words, and not asked again until the facts change; a
// decision recorded but never carried out (the service stopped in between) is carried out on the
// next poll. The host saying "merged" is recorded once as PullRequestMerged.

export interface AutoMergeDeps {
  readonly config: CodeHostConfig;
  /** the run's recorded events, oldest first */
  history(runId: string): readonly RecordedRunEvent[];
  /** appends to the run; false when it moved meanwhile (asked again next poll) */
  record(runId: string, event: RunEvent): boolean;
}

const isFor = (pr: PullRequestRef, on: PullRequestRef): boolean => on.repository === pr.repository && on.number === pr.number;

const lastDecision = (events: readonly RecordedRunEvent[], pr: PullRequestRef): AutoMergeDecided['data'] | undefined =>
  events.flatMap((e) => (e.type === 'AutoMergeDecided' && isFor(pr, e.data.pullRequest) ? [e.data] : [])).at(-1);

const ref = (pr: PullRequestRef) => ({ repository: pr.repository, number: pr.number, url: pr.url });

const recordMerged = (deps: AutoMergeDeps, runId: string, pr: PullRequestRef, headCommit: string, mergeCommit: string | null): void => {
  if (deps.history(runId).some((e) => e.type === 'PullRequestMerged' && isFor(pr, e.data.pullRequest))) return;
  deps.record(runId, { type: 'PullRequestMerged', data: { pullRequest: ref(pr), headCommit, mergeCommit } });
};

const carryOut = async (deps: AutoMergeDeps, runId: string, pr: PullRequestRef, decided: AutoMergeDecided['data'], pullRequestId: string): Promise<void> => {
  const [owner, name] = pr.repository.split('/') as [string, string];
  const viaHost = decided.outcome === 'enable-auto-merge';
  const subject = `${viaHost ? "turning on the host's auto-merge for" : 'merging'} pull request ${owner}/${name}#${pr.number}`;
  const answer = await mergeOnHost(deps.config, { pullRequestId, method: decided.method, headCommit: decided.headCommit, viaHost, subject });
  if (answer._tag === 'Left') {
    deps.record(runId, { type: 'AutoMergeDecided', data: { ...decided, outcome: 'refused', reason: `the code host refused: ${answer.left.detail}` } });
    return;
  }
  if (answer.right.state === 'MERGED') recordMerged(deps, runId, pr, decided.headCommit, answer.right.mergeCommit);
};

/** setting: the run's project's auto-merge, null when off (then only a merge the host reports is recorded) */
export const considerAutoMerge = async (deps: AutoMergeDeps, runId: string, pr: PullRequestRef, view: PullRequestView, setting: AutoMergeSetting | null): Promise<void> => {
  if (view.state === 'MERGED') return recordMerged(deps, runId, pr, view.headCommit, null);
  if (setting === null || view.state !== 'OPEN') return;
  const [owner, name] = pr.repository.split('/');
  if (!owner || !name) return;
  const target = await readMergeTarget(deps.config, owner, name, pr.number);
  if (target._tag === 'Left') return; // asked again next poll
  const last = lastDecision(deps.history(runId), pr);
  const decided = decideAutoMerge({ pullRequest: pr, view, autoMergeAllowed: target.right.autoMergeAllowed }, setting, last);
  if (decided.length > 0 && !deps.record(runId, decided[0]!)) return;
  const current = decided[0]?.data ?? last;
  // refused, or the host's auto-merge is on already and merges when its own rules allow
  if (!current || current.outcome === 'refused' || view.autoMerge !== null) return;
  await carryOut(deps, runId, pr, current, target.right.pullRequestId);
};
