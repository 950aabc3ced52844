import * as t from 'io-ts';
import { HARNESSES } from '../domain/workflow.js';
import { ActorCodec, oneOf, withOptional } from './codec-util.js';
import { WorkflowCodec } from './workflow-codec.js';

// Every event a run's journal can hold: type -> codec of its data. The TypeScript types are derived
// from these codecs, so the stored shape and the code can never drift apart.

const Harness = oneOf(HARNESSES);
const Outcome = oneOf(['success', 'failure'] as const);
const Why = { reason: t.string };
const By = { by: ActorCodec };

const CheckoutCodec = withOptional({ folder: t.string, path: t.string, directory: t.string, branch: t.string, base: t.string }, { baseBranch: t.union([t.string, t.null]), clone: t.boolean });
// What an archive kept of one folder before its worktree went (lib/git/keep-work.ts): a snapshot
// commit (worktree tree, its second parent the index) under `ref`, which archiving never deletes;
// `head` the branch the worktree was on (null: detached); `changes` the uncommitted paths then.
const KeptWorkCodec = t.type({ folder: t.string, commit: t.string, ref: t.string, head: t.union([t.string, t.null]), changes: t.number });
// blob: the file as it was when the comment was written (new side), so the comment can follow its
// line through later changes (lib/git/line-moves.ts); older comments lack it
const ReviewCommentCodec = withOptional(
  { path: t.string, side: oneOf(['new', 'old'] as const), line: t.number, body: t.string, quote: t.string },
  { endLine: t.number, blob: t.string },
);
// A follow-up continues an ended run: the run it continues, the first run of the chain (the
// board shows a chain as one card), that run's checkouts (its branch and
// worktrees, reused as they are), the last agent session to resume, and a short summary of the
// thread for a CLI that starts afresh.
// A CLI's running totals for a session (lib/harness/adapter.ts SessionTotals): given back when the
// session resumes, so a resumed turn counts only its own usage.
const SessionTotalsCodec = t.partial({ costUsd: t.number, usage: t.record(t.string, t.number) });
// `totals`: what the CLI reported for that session at the end of its last recorded turn
const ContinuesCodec = withOptional(
  { runId: t.string, root: t.string, checkouts: t.array(CheckoutCodec), thread: t.string },
  { session: withOptional({ harness: Harness, node: t.string, sessionId: t.string }, { totals: SessionTotalsCodec }) },
);
// One of several sibling runs started together on the same goal (POST /api/runs `attempts`): the
// group is read from each run's own journal, so no run depends on another to know its siblings.
const AttemptCodec = t.type({ group: t.string, index: t.number, of: t.number });
// One agent turn's usage (lib/usage): uncached input, cached input and output tokens (null: the CLI
// reported none), and its cost with where the figure came from. Unknown is never zero.
const TurnTokensCodec = t.type({ input: t.number, cachedInput: t.number, output: t.number });
const UsageCostCodec = t.union([
  t.type({ _tag: t.literal('Reported'), usd: t.number }),
  t.type({ _tag: t.literal('Priced'), usd: t.number }),
  t.type({ _tag: t.literal('Unknown'), why: t.string }),
]);
// A fork starts from a step end of another run (lib/service/forks.ts): the run and the seq of that
// step end, the node it starts at and the previous step's outcome as the source had them there, each
// folder's snapshot to restore (and the source's base, so diffs compare against the same base), the
// agent session to fork, and a summary of the source's thread for a CLI that cannot fork one.
const ForkSnapshotCodec = t.type({ folder: t.string, commit: t.string, base: t.string });
const ForkedFromCodec = withOptional(
  {
    run: t.string, at: t.number, step: t.string, node: t.string, snapshots: t.array(ForkSnapshotCodec), thread: t.string,
    previous: t.type({ node: t.string, outcome: oneOf(['success', 'failure', 'interrupted'] as const), summary: t.string }),
  },
  { note: t.string, session: withOptional({ harness: Harness, node: t.string, sessionId: t.string }, { totals: SessionTotalsCodec }) },
);
const PullRequestCodec = t.type({ repository: t.string, number: t.number, url: t.string });
// The pull request loop (lib/engine/pr-loop.ts): what started a cycle, and what came of it.
// A cause names what it answers (the head commit, the thread ids), so it is taken up once.
const FailingCheckCodec = t.type({ name: t.string, conclusion: t.string, excerpt: t.string });
const ReviewThreadCodec = t.type({
  id: t.string, author: t.union([t.string, t.null]), path: t.string, line: t.union([t.number, t.null]), body: t.string, commentIds: t.array(t.string),
});
const CycleCauseCodec = t.union([
  t.type({ _tag: t.literal('Checks'), headCommit: t.string, failing: t.array(FailingCheckCodec) }),
  t.type({ _tag: t.literal('Threads'), headCommit: t.string, threads: t.array(ReviewThreadCodec) }),
  t.type({ _tag: t.literal('Conflict'), headCommit: t.string, base: t.string }),
]);
const CycleResultCodec = t.union([
  t.type({ _tag: t.literal('Pushed'), headCommit: t.string, summary: t.string }),
  t.type({ _tag: t.literal('NoChange'), summary: t.string }),
  t.type({ _tag: t.literal('Failed'), reason: t.string }),
  t.type({ _tag: t.literal('Interrupted'), reason: t.string }),
]);
// the trigger rule and event that started a run (lib/triggers)
const StartedByCodec = t.type({
  rule: t.type({ id: t.string, name: t.string }),
  event: withOptional({ kind: t.string, id: t.string, summary: t.string }, { url: t.string }),
});

export const RUN_EVENT_CODECS = {
  RunCreated: withOptional(
    { runId: t.string, projectId: t.string, title: t.string, goal: t.string, workflow: WorkflowCodec, inputs: t.record(t.string, t.string), ...By },
    { harness: Harness, model: t.string, startedBy: StartedByCodec, restartOf: t.string, continues: ContinuesCodec, attempt: AttemptCodec, budgetUsd: t.number, forkedFrom: ForkedFromCodec, ...Why },
  ),
  RunQueued: withOptional(By, Why),
  RunMovedToFront: withOptional({ priority: t.number, ...By }, Why),
  RunStarted: t.type({ node: t.union([t.string, t.null]) }),
  WorktreesPrepared: t.type({ checkouts: t.array(CheckoutCodec) }),
  WorktreesRemoved: t.type({}),
  // recorded before an archive removes the worktrees, so a crash mid-removal loses nothing
  WorkKept: t.type({ kept: t.array(KeptWorkCodec) }),
  // an unarchive made the worktrees again and restored what WorkKept kept
  WorktreesRestored: t.type({ checkouts: t.array(CheckoutCodec) }),
  StepStarted: withOptional(
    { stepId: t.string, node: t.string, kind: t.string, attempt: t.number },
    // sandboxed: whether the step ran in svc's sandbox (docs/sandbox.md), unsandboxed: why it did not
    { harness: Harness, model: t.string, endsAt: t.string, resumeSession: t.string, messages: t.array(t.string), sandboxed: t.boolean, unsandboxed: t.string },
  ),
  StepSessionStarted: t.type({ stepId: t.string, sessionId: t.string }),
  // the CLI's process group: its leader's pid and start time (/proc/<pid>/stat field 22)
  StepProcessStarted: t.type({ stepId: t.string, pid: t.number, startTime: t.string }),
  // a restart ended the group a crashed server left running, before running the step again
  StepProcessKilled: t.type({ stepId: t.string, pid: t.number, processes: t.number }),
  OutcomeReported: t.type({ stepId: t.string, outcome: Outcome, summary: t.string }),
  StepSucceeded: withOptional({ stepId: t.string, node: t.string, summary: t.string }, { costUsd: t.number }),
  StepFailed: withOptional({ stepId: t.string, node: t.string, summary: t.string }, { failure: t.string, costUsd: t.number }),
  StepInterrupted: t.type({ stepId: t.string, node: t.string, reason: t.string }),
  AgentReplied: t.type({ stepId: t.string, text: t.string }),
  RunPaused: withOptional(By, Why),
  RunResumed: withOptional(By, Why),
  RunRetried: withOptional(By, Why),
  RunRestarted: withOptional({ as: t.string, ...By }, Why),
  // a follow-up run was made to continue this ended run on its branch and worktrees
  RunFollowedUp: withOptional({ as: t.string, ...By }, Why),
  RunAborted: withOptional(By, Why),
  HarnessChanged: withOptional({ harness: Harness, ...By }, Why),
  Jumped: withOptional({ node: t.string, ...By }, Why),
  WaitSkipped: withOptional({ stepId: t.string, ...By }, Why),
  RunSucceeded: t.type({ summary: t.string }),
  RunFailed: t.type({ reason: t.string }),
  GoalRevised: withOptional({ goal: t.string, previous: t.string, ...By }, Why),
  // `review`: the message is a review's (ReviewSubmitted just before it), so the thread shows the review, not the text twice
  MessageSent: withOptional({ messageId: t.string, text: t.string, delivery: oneOf(['Resume', 'Hold'] as const), ...By }, { review: t.string, ...Why }),
  // comments on lines of the run's diff, each with the code it quotes as it was when submitted
  // `followUp`: the run had ended, so the review went to the follow-up run it made (its goal is the review's message)
  ReviewSubmitted: withOptional({ reviewId: t.string, messageId: t.string, comments: t.array(ReviewCommentCodec), ...By }, { summary: t.string, followUp: t.string, ...Why }),
  MessageDelivered: t.type({ messageId: t.string, stepId: t.string }),
  // a held message that can never reach an agent now (the run ended or was aborted with it held)
  MessageUndelivered: t.type({ messageId: t.string, reason: t.string }),
  QuestionAsked: t.type({ questionId: t.string, stepId: t.string, prompt: t.string, options: t.array(t.string), allowText: t.boolean }),
  QuestionAnswered: withOptional({ questionId: t.string, answer: t.union([t.string, t.array(t.string)]), ...By }, Why),
  QuestionWithdrawn: t.type({ questionId: t.string, reason: t.string }),
  RunArchived: withOptional(By, Why),
  RunUnarchived: withOptional(By, Why),
  RunResolved: withOptional(By, Why),
  // a project supervisor handed the run to the global supervisor, which owns it from now on
  RunHandedOver: t.type({ from: t.string, to: t.string, reason: t.string, ...By }),
  PullRequestDelivered: t.type({ stepId: t.string, pullRequest: PullRequestCodec }),
  ServiceNoted: t.type({ text: t.string }),
  // the code host reports failing checks on a pull request the run delivered: once per head commit
  // (lib/engine/pr-checks-watch.ts); it wakes the supervisor that owns the run
  PullRequestChecksFailed: t.type({ pullRequest: PullRequestCodec, headCommit: t.string, failing: t.array(t.string) }),
  // the step's CLI refused for its usage window (quota): not the agent's failure. `attempt` counts the
  // step's quota hits in a row (the backoff's exponent); `waitEndsAt`: the step waits until then and
  // runs again in the same session; absent, the run switches (HarnessChanged, reason quota, follows)
  QuotaHit: withOptional(
    { stepId: t.string, node: t.string, harness: Harness, resetsAt: t.union([t.string, t.null]), evidence: t.string, attempt: t.number },
    { waitEndsAt: t.string },
  ),
  // a quota wait ended (its time came, or a person skipped it): the step runs again, resuming its session
  QuotaWaitEnded: t.type({ stepId: t.string, node: t.string }),
  // the queue holds this run: the harness it would start on is out of quota until `until` (null: until it is seen back)
  QueueHeld: t.type({ harness: Harness, until: t.union([t.string, t.null]) }),
  // auto-merge's audit trail (commands/auto-merge.ts): each decision with the facts it used, recorded
  // before any merge is asked for and again only when the facts change
  AutoMergeDecided: t.type({
    pullRequest: PullRequestCodec, headCommit: t.string, checks: t.array(t.type({ name: t.string, conclusion: t.string })),
    reviewDecision: t.union([t.string, t.null]), unresolvedThreads: t.number, isDraft: t.boolean,
    method: oneOf(['squash', 'merge', 'rebase'] as const), outcome: oneOf(['merge', 'enable-auto-merge', 'refused'] as const), reason: t.string,
  }),
  // the code host says the pull request is merged (by svc's merge, the host's auto-merge, or a person)
  PullRequestMerged: t.type({ pullRequest: PullRequestCodec, headCommit: t.string, mergeCommit: t.union([t.string, t.null]) }),
  // shipping from the app (lib/service/ship.ts, docs/shipping.md): a pull request opened on a
  // person's or agent's word, outside any deliver step; the run's pullRequests take it as a delivered one
  PullRequestOpened: t.type({ pullRequest: PullRequestCodec, base: t.string, draft: t.boolean, ...By }),
  // the run's branch of one folder merged into the base branch of the project's own checkout
  RunMerged: t.type({ folder: t.string, method: oneOf(['fast-forward', 'merge', 'squash'] as const), base: t.string, commit: t.string, ...By }),
  // a local merge about to move the person's base branches (lib/service/ship-local.ts): per folder,
  // the branch's commit it was built on and the merge commit it moves to. Recorded before any ref
  // moves, so a restart can tell merged (RunMerged) from untouched (MergeAbandoned); one at a time
  MergeStarted: t.type({
    method: oneOf(['fast-forward', 'merge', 'squash'] as const),
    folders: t.array(t.type({ folder: t.string, base: t.string, from: t.string, commit: t.string })), ...By,
  }),
  // a started merge ended without moving the folders still pending: why (git refused, the base
  // moved meanwhile, or the service stopped before moving it)
  MergeAbandoned: t.type({ reason: t.string }),
  // the base branch brought into the run's branch of one folder, in its worktree
  BaseUpdated: t.type({ folder: t.string, mode: oneOf(['merge', 'rebase'] as const), head: t.string, ...By }),
  // updating from base met conflicts: aborted, the worktree as before; `handedTo` the run or follow-up that resolves them
  BaseUpdateConflicted: withOptional({ folder: t.string, mode: oneOf(['merge', 'rebase'] as const), files: t.array(t.string), ...By }, { handedTo: t.string }),
  // a person chose this attempt of its group ("Keep this one"); the others were archived with it
  AttemptKept: withOptional({ group: t.string, kept: t.string, ...By }, { archived: t.array(t.string), ...Why }),
  // one per agent turn the engine ran (docs/usage.md); `sessionId`/`sessionTotals`: the CLI's running
  // totals for that session, given back when it resumes (a later step, a follow-up)
  UsageRecorded: withOptional(
    { stepId: t.string, node: t.string, harness: Harness, tokens: t.union([TurnTokensCodec, t.null]), cost: UsageCostCodec },
    { model: t.string, sessionId: t.string, sessionTotals: SessionTotalsCodec },
  ),
  // Resume with a raised budget (a run paused by its budget goes on until the new one)
  BudgetRaised: t.type({ budgetUsd: t.number, ...By }),
  // The pull request loop (issue 20 §2): a deliver step with watch=true keeps its step open on the
  // pull request it opened; each cause is recorded before the agent's turn on it (exactly once per
  // cause, across restarts), and the cycle's end after the push; at the cycle limit the run pauses.
  PullRequestWatchStarted: t.type({ stepId: t.string, pullRequest: PullRequestCodec, cycles: t.number, resolveThreads: t.boolean }),
  PullRequestCycleStarted: t.type({ stepId: t.string, cycle: t.number, of: t.number, cause: CycleCauseCodec }),
  PullRequestCycleEnded: t.type({ stepId: t.string, cycle: t.number, result: CycleResultCodec }),
  PullRequestThreadsAnswered: t.type({ stepId: t.string, cycle: t.number, replied: t.array(t.string), resolved: t.array(t.string) }),
  PullRequestLoopLimitReached: t.type({ stepId: t.string, cause: CycleCauseCodec, reason: t.string }),
  // the worktree of one folder as the step that ended at seq `at` left it: a commit under `ref`
  // (lib/git/snapshot.ts), taken before the next step starts; a fork restores it
  SnapshotTaken: t.type({ stepId: t.string, node: t.string, at: t.number, folder: t.string, commit: t.string, ref: t.string }),
  // a snapshot that could not be taken: noted (the thread shows it), never a reason to fail the run
  SnapshotFailed: t.type({ stepId: t.string, node: t.string, at: t.number, folder: t.string, reason: t.string }),
} as const;

type Codecs = typeof RUN_EVENT_CODECS;
export type RunEventType = keyof Codecs;
export type RunEvent = { [K in RunEventType]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[RunEventType];
export type RunEventOf<K extends RunEventType> = Extract<RunEvent, { type: K }>;
export type Checkout = t.TypeOf<typeof CheckoutCodec>;
export type KeptWork = t.TypeOf<typeof KeptWorkCodec>;
export type ReviewComment = t.TypeOf<typeof ReviewCommentCodec>;
export type Continues = t.TypeOf<typeof ContinuesCodec>;
export type Attempt = t.TypeOf<typeof AttemptCodec>;
export type TurnTokens = t.TypeOf<typeof TurnTokensCodec>;
export type UsageCost = t.TypeOf<typeof UsageCostCodec>;
export type CycleCause = t.TypeOf<typeof CycleCauseCodec>;
export type CycleResult = t.TypeOf<typeof CycleResultCodec>;
export type FailingCheck = t.TypeOf<typeof FailingCheckCodec>;
export type ReviewThread = t.TypeOf<typeof ReviewThreadCodec>;
export type ForkedFrom = t.TypeOf<typeof ForkedFromCodec>;

// Events that only add to the thread or log: they do not move the run's position, so a control
// taken from a view stays valid while the agent keeps talking.
export const QUIET_EVENTS: ReadonlySet<RunEventType> = new Set([
  'AgentReplied', 'StepSessionStarted', 'ServiceNoted', 'OutcomeReported', 'StepProcessStarted', 'StepProcessKilled',
  // who owns a run is not where it stands: a control taken before a handover is not stale
  'RunHandedOver',
  // what the code host says of a delivered pull request is not where the run stands
  'PullRequestChecksFailed',
  // why a queued run is not started yet is not where it stands: it is still queued
  'QueueHeld',
  // auto-merge's decisions and the host's merge are records of the pull request, not the run's position
  'AutoMergeDecided', 'PullRequestMerged',
  // shipping records what was done to the branch and the code host, not where the run stands
  'PullRequestOpened', 'RunMerged', 'MergeStarted', 'MergeAbandoned', 'BaseUpdated', 'BaseUpdateConflicted',
  // keeping an attempt records a choice; the kept run itself does not move
  'AttemptKept',
  // what a turn cost is a record, not a move: the step's end (or a budget pause) moves the run
  'UsageRecorded',
  // replies on review threads are what the host shows, not where the run stands
  'PullRequestThreadsAnswered',
  // a snapshot records the worktree at a step end; the run stands where the step end put it
  'SnapshotTaken', 'SnapshotFailed',
  // keeping an archived run's work and restoring it move its folders, not the run
  'WorkKept', 'WorktreesRestored',
]);

export const runEvent = <K extends RunEventType>(type: K, data: t.TypeOf<Codecs[K]>): RunEvent => ({ type, data }) as RunEvent;
