import { colon, dollars, list, num, obj, plural, prNumber, str, who, type Words } from './history-text.js';

// History's sentences for shipping, pull requests, quota and cost (the rest: history-words.ts).

const AUTO_MERGE: Readonly<Record<string, string>> = { merge: 'svc merges it', 'enable-auto-merge': "svc turns on the host's auto-merge", refused: 'svc does not merge it' };
const CYCLE_RESULT: Readonly<Record<string, string>> = { Pushed: 'a fix was pushed', NoChange: 'nothing needed changing', Failed: 'it failed', Interrupted: 'it was interrupted' };

const cost = (c: Readonly<Record<string, unknown>>): string =>
  typeof c['usd'] === 'number' ? `cost ${dollars(c['usd'])}` : `cost not recorded${colon(str(c, 'why'))}`;

export const SHIP_WORDS: Readonly<Record<string, Words>> = {
  PullRequestDelivered: (d) => `The step opened ${prNumber(d)}.`,
  PullRequestOpened: (d) => `${who(d)} opened ${prNumber(d)} into ${str(d, 'base') ?? 'its base'}${d['draft'] === true ? ' as a draft' : ''}.`,
  PullRequestChecksFailed: (d) => `Checks failed on ${prNumber(d)}${colon(list(d, 'failing').filter((x) => typeof x === 'string').join(', '))}.`,
  PullRequestMerged: (d) => `The code host merged ${prNumber(d)}.`,
  AutoMergeDecided: (d) => `Auto-merge looked at ${prNumber(d)}: ${AUTO_MERGE[str(d, 'outcome') ?? ''] ?? 'no decision'}${colon(str(d, 'reason'))}.`,
  RunMerged: (d) => `${who(d)} merged ${str(d, 'folder') ?? 'the branch'} into ${str(d, 'base') ?? 'its base'} (${str(d, 'method') ?? 'merge'}).`,
  MergeStarted: (d) => `${who(d)} started merging the run's branches locally (${str(d, 'method') ?? 'merge'}).`,
  MergeAbandoned: (d) => `The local merge stopped${colon(str(d, 'reason'))}.`,
  BaseUpdated: (d) => `${who(d)} brought ${str(d, 'folder') ?? 'the branch'} up to date with its base (${str(d, 'mode') ?? 'merge'}).`,
  BaseUpdateConflicted: (d) => `Updating ${str(d, 'folder') ?? 'the branch'} from its base met conflicts in ${plural(list(d, 'files').length, 'file')}; nothing was changed.`,
  PullRequestWatchStarted: (d) => `The step started watching ${prNumber(d)} (up to ${plural(num(d, 'cycles') ?? 0, 'cycle')}).`,
  PullRequestCycleStarted: (d) => `Round ${num(d, 'cycle') ?? '?'} of ${num(d, 'of') ?? '?'} on the pull request started.`,
  PullRequestCycleEnded: (d) => `Round ${num(d, 'cycle') ?? '?'} on the pull request ended: ${CYCLE_RESULT[str(obj(d, 'result'), '_tag') ?? ''] ?? 'done'}.`,
  PullRequestThreadsAnswered: (d) => `The agent replied on ${plural(list(d, 'replied').length, 'review thread')} and resolved ${list(d, 'resolved').length}.`,
  PullRequestLoopLimitReached: (d) => `The pull request loop reached its limit${colon(str(d, 'reason'))}.`,
  QuotaHit: (d) => `${str(d, 'harness') ?? 'The harness'} hit its usage limit${d['waitEndsAt'] ? '; the step waits, then runs again' : ''}.`,
  QuotaWaitEnded: (d) => `The wait for the usage limit ended; step ${str(d, 'node') ?? ''} runs again.`,
  QueueHeld: (d) => `The queue holds the run: ${str(d, 'harness') ?? 'its harness'} is out of quota.`,
  UsageRecorded: (d) => `A turn of step ${str(d, 'node') ?? ''} on ${str(d, 'harness') ?? 'its harness'} was recorded, ${cost(obj(d, 'cost'))}.`,
  BudgetRaised: (d) => `${who(d)} raised the budget to ${dollars(num(d, 'budgetUsd') ?? 0)}.`,
  SnapshotTaken: (d) => `Saved ${str(d, 'folder') ?? 'the folder'} as step ${str(d, 'node') ?? ''} left it.`,
  SnapshotFailed: (d) => `Could not save ${str(d, 'folder') ?? 'the folder'} after step ${str(d, 'node') ?? ''}${colon(str(d, 'reason'))}.`,
};
