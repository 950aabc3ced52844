import type { RunEventOf } from '../journal/run-events.js';
import type { PullRequestView } from '../domain/pull-request.js';
import type { MergeMethod } from '../domain/pull-request.js';
import type { PullRequestRef } from '../domain/runs.js';

// Whether svc merges a run's pull request for a project that turned auto-merge on. Pure: the
// facts are the code host's view of the pull request, read by the caller. Conditions, each
// naming itself when it fails: open, not a draft, no merge conflict, every required check
// passed (when none is marked required, every reported check), the review decision APPROVED or
// null (the host requires no review), and no unresolved review thread. When they hold: the
// host's auto-merge if the repository allows it (the host then adds its own rules, such as a
// merge queue), else a direct merge. A decision is recorded only when its facts differ from
// the last one recorded for that pull request, so polling the same facts writes nothing.

export interface AutoMergeSetting { readonly method: MergeMethod }
export type AutoMergeDecided = RunEventOf<'AutoMergeDecided'>;

export interface AutoMergeFacts {
  readonly pullRequest: PullRequestRef;
  readonly view: PullRequestView;
  readonly autoMergeAllowed: boolean;
}

const names = (cs: readonly { readonly name: string }[]): string => cs.map((c) => c.name).join(', ');

const checksRefusal = (view: PullRequestView): string | null => {
  const required = view.checks.filter((c) => c.required);
  const counted = required.length > 0 ? required : view.checks;
  const failing = counted.filter((c) => c.outcome === 'Failing');
  if (failing.length) return `required checks failing: ${names(failing)}`;
  const pending = counted.filter((c) => c.outcome === 'Pending');
  return pending.length ? `required checks pending: ${names(pending)}` : null;
};

const reviewRefusal = (decision: string | null): string | null =>
  decision === null || decision === 'APPROVED' ? null : `review decision is ${decision}, not APPROVED`;

/** the first condition that fails, in the order a person would fix them; null when all hold */
export const autoMergeRefusal = (view: PullRequestView): string | null => {
  if (view.state !== 'OPEN') return `the pull request is ${view.state.toLowerCase()}, not open`;
  if (view.draft) return 'the pull request is a draft';
  if (view.mergeable === 'CONFLICTING') return 'the pull request has merge conflicts with its base';
  const unresolved = view.reviewThreads.filter((t) => !t.resolved).length;
  return checksRefusal(view) ?? reviewRefusal(view.reviewDecision) ?? (unresolved ? `${unresolved} unresolved review thread(s)` : null);
};

const sameFacts = (a: AutoMergeDecided['data'], b: AutoMergeDecided['data']): boolean =>
  JSON.stringify([a.headCommit, a.checks, a.reviewDecision, a.unresolvedThreads, a.isDraft, a.method])
  === JSON.stringify([b.headCommit, b.checks, b.reviewDecision, b.unresolvedThreads, b.isDraft, b.method]);

/** The decision on these facts, whether or not it is news. */
export const autoMergeDecision = (facts: AutoMergeFacts, setting: AutoMergeSetting): AutoMergeDecided => {
  const { view } = facts;
  const refusal = autoMergeRefusal(view);
  // the host's auto-merge turned on already (by svc or a person): it merges; nothing more to ask
  const onAlready = view.autoMerge !== null;
  const outcome = refusal !== null ? 'refused' : facts.autoMergeAllowed || onAlready ? 'enable-auto-merge' : 'merge';
  const { repository, number, url } = facts.pullRequest;
  return {
    type: 'AutoMergeDecided',
    data: {
      pullRequest: { repository, number, url },
      headCommit: view.headCommit,
      checks: view.checks.map((c) => ({ name: c.name, conclusion: c.state })),
      reviewDecision: view.reviewDecision,
      unresolvedThreads: view.reviewThreads.filter((t) => !t.resolved).length,
      isDraft: view.draft,
      method: setting.method,
      outcome,
      reason: refusal ?? (outcome === 'merge' ? `green and approved: merging by ${setting.method}` : onAlready ? "green and approved: the host's auto-merge is on already" : `green and approved: the host's auto-merge by ${setting.method}`),
    },
  };
};

/** last: the last AutoMergeDecided recorded for this pull request. [] when the facts are not news. */
export const decideAutoMerge = (facts: AutoMergeFacts, setting: AutoMergeSetting, last: AutoMergeDecided['data'] | undefined): AutoMergeDecided[] => {
  const decided = autoMergeDecision(facts, setting);
  return last !== undefined && sameFacts(last, decided.data) ? [] : [decided];
};
