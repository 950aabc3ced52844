import type { KeptWork, RunEvent } from '../journal/run-events.js';
import type { Actor } from '../domain/runs.js';
import { cycleRow } from './pr-watch-rows.js';

// Thread rows: the conversation of a run as people read it. One row per event that speaks;
// every other event maps to null. The reason an actor gave (a supervisor must give one for every
// action, docs/supervisors.md) is shown with what it did: in a control's text, and as `reason`
// beside a goal, message or answer, whose text is the content itself.

export interface ThreadRow {
  readonly id: string;
  readonly at: string;
  readonly kind: 'goal' | 'goal-revised' | 'message' | 'review' | 'agent' | 'question' | 'answer' | 'step' | 'control' | 'ended' | 'note';
  readonly author: 'person' | 'agent' | 'supervisor' | 'run-agent' | 'service';
  readonly authorName?: string;
  readonly text: string;
  /** why the actor did it, when it said (goal, goal-revised, message, answer rows) */
  readonly reason?: string;
  /** the step a step row or the agent's words belong to: the app groups a step's rows and tool calls by it */
  readonly stepId?: string;
  /** on a step row: the workflow node */
  readonly node?: string;
  /** on a step's start: the CLI and model it runs on */
  readonly harness?: string;
  readonly model?: string;
  /** on a step's start: the node's kind (agent, gate, wait, …), so a gate is not read as running */
  readonly stepKind?: string;
}

const from = (by: Actor): Pick<ThreadRow, 'author' | 'authorName'> =>
  by.kind === 'engine' ? { author: 'service' } : by.name ? { author: by.kind, authorName: by.name } : { author: by.kind };

const why = (d: { reason?: string }): Pick<ThreadRow, 'reason'> => (d.reason ? { reason: d.reason } : {});

const runsOn = (d: { harness?: string; model?: string }): Pick<ThreadRow, 'harness' | 'model'> =>
  ({ ...(d.harness ? { harness: d.harness } : {}), ...(d.model ? { model: d.model } : {}) });

const keptText = (kept: readonly KeptWork[]): string => `before removing the worktree${kept.length === 1 ? '' : 's'}, kept ${kept.map((k) =>
  `${k.changes} uncommitted change${k.changes === 1 ? '' : 's'} of folder ${k.folder} (${k.ref})`).join(', ')}: an unarchive restores ${kept.length === 1 ? 'it' : 'them'}`;

const control = (what: string, d: { by: Actor; reason?: string }): Omit<ThreadRow, 'id' | 'at'> =>
  ({ kind: 'control', ...from(d.by), text: d.reason ? `${what}: ${d.reason}` : what });

// what a person reads of a review in the thread: each comment's place and words, then the summary
const reviewText = (d: { comments: readonly { path: string; side: string; line: number; endLine?: number; body: string }[]; summary?: string; followUp?: string }): string =>
  [`review: ${d.comments.length} comment${d.comments.length === 1 ? '' : 's'}${d.followUp ? ` (sent to follow-up run ${d.followUp})` : ''}`,
    ...d.comments.map((c) => `${c.path}:${lines(c)}${c.side === 'old' ? ' (old)' : ''}: ${c.body}`),
    ...(d.summary ? [d.summary] : [])].join('\n');

/** `12` or `12-15`: where a comment is, as the agent's message names it too */
export const lines = (c: { line: number; endLine?: number }): string => (c.endLine !== undefined && c.endLine !== c.line ? `${c.line}-${c.endLine}` : String(c.line));

// the CLI's own words are quoted: they are what it said, not the service's reading of it
const quotaText = (d: Extract<RunEvent, { type: 'QuotaHit' }>['data']): string =>
  `step ${d.node}: ${d.harness} is out of quota (${JSON.stringify(d.evidence)})${d.waitEndsAt ? `; waiting until ${d.waitEndsAt}, then the same session goes on` : '; switching harness'}`;

export const threadRow = (e: RunEvent): Omit<ThreadRow, 'id' | 'at'> | null => {
  switch (e.type) {
    case 'RunCreated': return { kind: 'goal', ...from(e.data.by), text: e.data.goal, ...why(e.data) };
    case 'GoalRevised': return { kind: 'goal-revised', ...from(e.data.by), text: e.data.goal, ...why(e.data) };
    // a review's message is shown as the review (its row just before)
    case 'MessageSent': return e.data.review ? null : { kind: 'message', ...from(e.data.by), text: e.data.text, ...why(e.data) };
    case 'ReviewSubmitted': return { kind: 'review', ...from(e.data.by), text: reviewText(e.data), ...why(e.data) };
    case 'AgentReplied': return { kind: 'agent', author: 'run-agent', text: e.data.text, stepId: e.data.stepId };
    case 'QuestionAsked': return { kind: 'question', author: 'run-agent', text: e.data.options.length ? `${e.data.prompt} [${e.data.options.join(' | ')}]` : e.data.prompt };
    case 'QuestionAnswered': return { kind: 'answer', ...from(e.data.by), text: typeof e.data.answer === 'string' ? e.data.answer : e.data.answer.join(', '), ...why(e.data) };
    case 'QuestionWithdrawn': return { kind: 'note', author: 'service', text: `question withdrawn: ${e.data.reason}` };
    case 'StepStarted': return { kind: 'step', node: e.data.node, author: 'service', text: `step ${e.data.node} started`, stepId: e.data.stepId, stepKind: e.data.kind, ...runsOn(e.data) };
    case 'StepSucceeded': return { kind: 'step', node: e.data.node, author: 'service', text: `step ${e.data.node} succeeded: ${e.data.summary}`, stepId: e.data.stepId };
    case 'StepFailed': return { kind: 'step', node: e.data.node, author: 'service', text: `step ${e.data.node} failed: ${e.data.summary}`, stepId: e.data.stepId };
    case 'StepInterrupted': return { kind: 'step', node: e.data.node, author: 'service', text: `step ${e.data.node} interrupted: ${e.data.reason}`, stepId: e.data.stepId };
    case 'RunPaused': return control('paused', e.data);
    case 'RunResumed': return control('resumed', e.data);
    case 'RunRetried': return control('retried', e.data);
    case 'RunRestarted': return control(`restarted as ${e.data.as}`, e.data);
    case 'RunFollowedUp': return control(`followed up as ${e.data.as}`, e.data);
    case 'RunAborted': return control('aborted', e.data);
    case 'HarnessChanged': return control(`harness changed to ${e.data.harness}`, e.data);
    case 'Jumped': return control(`jumped to ${e.data.node}`, e.data);
    case 'WaitSkipped': return control('wait skipped', e.data);
    case 'RunMovedToFront': return control('moved to the front of the queue', e.data);
    case 'RunArchived': return control('archived', e.data);
    case 'RunUnarchived': return control('unarchived', e.data);
    case 'RunResolved': return control('resolved', e.data);
    case 'RunHandedOver': return control(`handed over by supervisor ${e.data.from} to supervisor ${e.data.to}`, e.data);
    case 'RunSucceeded': return { kind: 'ended', author: 'service', text: `succeeded: ${e.data.summary}` };
    case 'RunFailed': return { kind: 'ended', author: 'service', text: `failed: ${e.data.reason}` };
    case 'MessageUndelivered': return { kind: 'note', author: 'service', text: `message not delivered: ${e.data.reason}` };
    case 'StepProcessKilled': return { kind: 'note', author: 'service', text: `ended ${e.data.processes} agent process(es) left running by the stopped service (process group ${e.data.pid}) before running the step again` };
    // what the service did on someone's behalf, their reason included (secure_run_work)
    case 'ServiceNoted': return { kind: 'note', author: 'service', text: e.data.text };
    case 'PullRequestDelivered': return { kind: 'note', author: 'service', text: `pull request ${e.data.pullRequest.url}` };
    case 'PullRequestChecksFailed': return { kind: 'note', author: 'service', text: `checks failed on pull request ${e.data.pullRequest.url}: ${e.data.failing.join(', ')}` };
    case 'QuotaHit': return { kind: 'step', node: e.data.node, author: 'service', stepId: e.data.stepId, text: quotaText(e.data) };
    case 'QuotaWaitEnded': return { kind: 'step', node: e.data.node, author: 'service', stepId: e.data.stepId, text: `step ${e.data.node}: the quota wait ended; it runs again in the same session` };
    case 'QueueHeld': return { kind: 'note', author: 'service', text: `queued: ${e.data.harness} is out of quota${e.data.until ? ` until ${e.data.until}` : ''}` };
    // auto-merge's decisions show in the thread, so the person sees why a pull request was or was not merged
    case 'AutoMergeDecided': return { kind: 'note', author: 'service', text: `auto-merge of ${e.data.pullRequest.url} (${e.data.headCommit.slice(0, 12)}): ${e.data.outcome}: ${e.data.reason}` };
    case 'PullRequestMerged': return { kind: 'note', author: 'service', text: `pull request ${e.data.pullRequest.url} merged` };
    case 'PullRequestOpened': return control(`opened ${e.data.draft ? 'draft ' : ''}pull request ${e.data.pullRequest.url} into ${e.data.base}`, e.data);
    case 'RunMerged': return control(`merged folder ${e.data.folder} into ${e.data.base} (${e.data.method}) at ${e.data.commit.slice(0, 12)}`, e.data);
    case 'MergeStarted': return control(`merging ${e.data.folders.map((f) => `folder ${f.folder} into ${f.base}`).join(', ')} (${e.data.method})`, e.data);
    case 'MergeAbandoned': return { kind: 'note', author: 'service', text: `the merge ended without merging: ${e.data.reason}` };
    case 'BaseUpdated': return control(`updated folder ${e.data.folder} from its base (${e.data.mode}), now at ${e.data.head.slice(0, 12)}`, e.data);
    case 'BaseUpdateConflicted': return control(`updating folder ${e.data.folder} from its base (${e.data.mode}) met conflicts in ${e.data.files.join(', ')}; aborted${e.data.handedTo ? `, handed to ${e.data.handedTo}` : ''}`, e.data);
    case 'AttemptKept': return control(`kept over the other attempts${e.data.archived?.length ? ` (archived ${e.data.archived.join(', ')})` : ''}`, e.data);
    case 'PullRequestWatchStarted': case 'PullRequestCycleStarted': case 'PullRequestCycleEnded': case 'PullRequestThreadsAnswered': case 'PullRequestLoopLimitReached':
      return { kind: 'note', author: 'service', text: cycleRow(e), stepId: e.data.stepId };
    case 'SnapshotFailed': return { kind: 'note', author: 'service', text: `could not snapshot folder ${e.data.folder} after step ${e.data.node} (a fork cannot start there): ${e.data.reason}`, stepId: e.data.stepId };
    case 'WorkKept': return { kind: 'note', author: 'service', text: keptText(e.data.kept) };
    case 'WorktreesRestored': return { kind: 'note', author: 'service', text: `worktree${e.data.checkouts.length === 1 ? '' : 's'} restored as ${e.data.checkouts.length === 1 ? 'it was' : 'they were'} when archived` };
    case 'SnapshotTaken':
    case 'RunQueued': case 'RunStarted': case 'WorktreesPrepared': case 'WorktreesRemoved': case 'StepSessionStarted': case 'StepProcessStarted':
    case 'OutcomeReported': case 'MessageDelivered':
    // a turn's usage is shown with its step (the step header), not as a row of its own
    case 'UsageRecorded':
      return null;
    case 'BudgetRaised': return control(`budget raised to $${e.data.budgetUsd}`, e.data);
  }
};
