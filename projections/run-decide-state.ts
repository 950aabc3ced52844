import type { Attempt, Checkout, Continues, ForkedFrom, KeptWork, RunEvent } from '../journal/run-events.js';
import { QUIET_EVENTS } from '../journal/run-events.js';
import type { HarnessName, Workflow } from '../domain/workflow.js';
import type { Actor } from '../domain/runs.js';
import { findNode, nextNodeId, startNode } from '../domain/workflow.js';
import { addTurn, NO_USAGE, type RunUsage } from './run-usage.js';
import { evolveWatch, type PullRequestWatch } from './pr-watch.js';
import { evolveStepEnds, type StepEndsState } from './step-ends.js';

// The run's decide state: the part of its fold that the decides in commands/ and the engine read.
// What only a view reads (the board's times, reviews' comments, undelivered messages, usage by day)
// is folded apart (projections/run-state.ts composes them: docs/layers.md, "Where a run's field
// goes"). A field goes here only when a decide or the engine reads it; spec/layout.test.ts holds it.
// It is part of the snapshot stored beside the journal, so it holds plain JSON only.

export type Lifecycle = 'created' | 'queued' | 'active' | 'ended';
export type Ending = 'Succeeded' | 'Failed' | 'Aborted';

export interface StepInFlight {
  readonly stepId: string;
  readonly node: string;
  readonly kind: string;
  readonly attempt: number;
  readonly startedAt: string;
  readonly harness?: HarnessName;
  readonly endsAt?: string;
  readonly reported?: { readonly outcome: 'success' | 'failure'; readonly summary: string };
  /** the process group of the step's latest CLI turn: a restart ends it before running the step again */
  readonly process?: { readonly pid: number; readonly startTime: string };
  /** an agent step whose harness refused for quota, now waiting (kind 'wait') for its window to reset */
  readonly quota?: QuotaWait;
}

export interface QuotaWait {
  readonly harness: HarnessName;
  readonly resetsAt: string | null;
  readonly evidence: string;
}

export interface HeldMessage {
  readonly id: string;
  readonly text: string;
  readonly forStep?: string;
}

export interface OpenQuestion {
  readonly id: string;
  readonly stepId: string;
  readonly prompt: string;
  readonly options: readonly string[];
  readonly allowText: boolean;
}

export interface RunDecideState extends StepEndsState {
  readonly runId: string;
  readonly projectId: string;
  readonly title: string;
  readonly goal: string;
  readonly workflow: Workflow;
  readonly inputs: Readonly<Record<string, string>>;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly updatedAt: string;
  readonly lifecycle: Lifecycle;
  readonly ending: Ending | null;
  readonly endReason: string | null;
  readonly queuePriority: number;
  readonly paused: boolean;
  /** the node the run is at: where the next step starts, or the step in flight */
  readonly node: string | null;
  readonly step: StepInFlight | null;
  /** the last step to end, and how: prompts read it as {{previous.*}} */
  readonly previous: { readonly node: string; readonly outcome: 'success' | 'failure' | 'interrupted'; readonly summary: string } | null;
  readonly question: OpenQuestion | null;
  readonly answered: Readonly<Record<string, 'answered' | 'withdrawn'>>;
  /**
   * messages waiting for a turn; `forStep` marks one sent with Resume while that step's turn was in
   * flight but could not take it: the step's session continues with it before the step ends
   */
  readonly held: readonly HeldMessage[];
  /** every message id the run was sent (optional: snapshots from before it lack it); a repeat is not sent twice */
  readonly sentMessages?: readonly string[];
  readonly sessions: Readonly<Record<string, string>>;
  readonly harnessOverride: HarnessName | null;
  readonly checkouts: readonly Checkout[] | null;
  readonly archived: boolean;
  readonly resolved: boolean;
  readonly pullRequests: readonly { readonly repository: string; readonly number: number; readonly url: string }[];
  readonly restartedAs: string | null;
  readonly stepCount: number;
  /** seq of the last event; `position` is the seq of the last event that moved the run */
  readonly seq: number;
  readonly position: number;
  readonly unreadable: string | null;
  /** the supervisor the run was handed to: its owner (projections/ownership.ts), which a supervisor's decides check */
  readonly handedTo?: string;
  /** the supervisor that started the run: it counts against that supervisor's cap of runs at work */
  readonly startedBySupervisor?: string;
  /** the harness of the run's latest step: the window a turn's quota hit marks (lib/engine/quota-gate.ts) */
  readonly lastHarness?: HarnessName;
  /** the reviews submitted, by id: a repeat is not recorded twice (their comments: projections/run-reviews.ts) */
  readonly reviewIds?: readonly string[];
  /** a follow-up: the ended run it continues, on that run's checkouts (and session, where it can) */
  readonly continues?: Continues;
  /** the follow-ups made of this run, oldest first (optional: snapshots from before follow-ups lack it) */
  readonly continuedBy?: readonly string[];
  /** the latest agent session any step started: what a follow-up resumes */
  readonly lastSession?: { readonly harness: HarnessName; readonly node: string; readonly sessionId: string };
  /** the current step's quota hits in a row (the backoff's exponent); absent: none */
  readonly quotaAttempts?: number;
  /** a queued run the queue holds: the harness it would start on is out of quota (until null: until seen back) */
  readonly queueHeld?: { readonly harness: HarnessName; readonly until: string | null };
  /** local merges of the run's branches, oldest first (optional: snapshots from before shipping lack it) */
  readonly merges?: readonly RunMerge[];
  /** a local merge started and not yet ended: the folders it has still to move (MergeStarted) */
  readonly merging?: { readonly method: RunMerge['method']; readonly at: string; readonly by: Actor; readonly folders: readonly PendingMerge[] };
  /** the latest update from base of each folder (optional: snapshots from before shipping lack it) */
  readonly baseUpdates?: Readonly<Record<string, BaseUpdateOutcome>>;
  /** one of several sibling runs started together on the goal (optional: older snapshots lack it) */
  readonly attempt?: Attempt;
  /** the checkouts an archive removed: their branches stay, so Compare still reads their commits */
  readonly removedCheckouts?: readonly Checkout[];
  /** what an archive kept of each folder before removing its worktree; cleared when an unarchive restores it */
  readonly keptWork?: readonly KeptWork[];
  /** this attempt was kept over the others of its group */
  readonly kept?: { readonly at: string; readonly archived: readonly string[] };
  /** what its agent turns cost (projections/run-usage.ts; optional: snapshots from before usage lack it) */
  readonly usage?: RunUsage;
  /** the run's budget in USD: its known spend reaching it pauses the run before its next step */
  readonly budgetUsd?: number;
  /** why the run is paused, while it is (optional: snapshots from before it lack it) */
  readonly pauseReason?: string;
  /** the pull request loop of a deliver step with watch=true (projections/pr-watch.ts) */
  readonly prWatch?: PullRequestWatch;
  /** a fork: the run and step end it was made from, and what it took over from there */
  readonly forkedFrom?: ForkedFrom;
}

export interface RunMerge { readonly folder: string; readonly method: 'fast-forward' | 'merge' | 'squash'; readonly base: string; readonly commit: string; readonly at: string }
export interface PendingMerge { readonly folder: string; readonly base: string; readonly from: string; readonly commit: string }
export type BaseUpdateOutcome = { readonly mode: string; readonly head: string } | { readonly mode: string; readonly files: readonly string[]; readonly handedTo?: string };

export const firstNode = (wf: Workflow): string | null => {
  const start = startNode(wf);
  return start ? (nextNodeId(wf, start.id, 'success') ?? null) : null;
};

// `updatedAt` is the time of the event being folded (applyStoredDecide sets it first).
const ended = (s: RunDecideState, ending: Ending, reason: string | null): RunDecideState => ({
  ...s, lifecycle: 'ended', ending, endReason: reason, step: null, question: null, paused: false,
});

// After a step ends, the run moves along the route for its outcome; no route leaves node null,
// which the engine turns into a failure naming the missing route.
const afterStep = (s: RunDecideState, node: string, outcome: 'success' | 'failure', summary: string): RunDecideState => ({
  ...s, step: null, question: null, previous: { node, outcome, summary }, node: nextNodeId(s.workflow, node, outcome) ?? null,
});

const interrupted = (s: RunDecideState, reason: string): RunDecideState =>
  s.step ? { ...s, step: null, question: null, previous: { node: s.step.node, outcome: 'interrupted', summary: reason } } : s;

// The step turns into a wait for its harness's window (same step id: a restart re-arms it like any
// wait); without a wait the run switches harness, which the events that follow record.
const quotaHit = (s: RunDecideState, d: Extract<RunEvent, { type: 'QuotaHit' }>['data']): RunDecideState => {
  if (s.step?.stepId !== d.stepId) return s;
  if (!d.waitEndsAt) return { ...s, quotaAttempts: d.attempt };
  const { process: _process, reported: _reported, ...step } = s.step;
  return { ...s, quotaAttempts: d.attempt, question: null, step: { ...step, kind: 'wait', endsAt: d.waitEndsAt, quota: { harness: d.harness, resetsAt: d.resetsAt, evidence: d.evidence } } };
};

// a step that ended on its own resets the quota count: the next hit backs off from one minute again
const settled = (s: RunDecideState): RunDecideState => {
  const { quotaAttempts: _attempts, ...rest } = s;
  return rest;
};

const started = (s: RunDecideState): RunDecideState => {
  const { queueHeld: _held, ...rest } = s;
  return { ...rest, lifecycle: 'active' };
};

const unpaused = (s: RunDecideState): RunDecideState => {
  const { pauseReason: _reason, ...rest } = s;
  return { ...rest, paused: false };
};

const reopen = (s: RunDecideState): RunDecideState => {
  if (s.lifecycle !== 'ended') return s;
  return { ...s, lifecycle: 'queued', ending: null, endReason: null, resolved: false };
};

// A Resume message sent while an agent turn runs is meant for that turn, even if its CLI cannot
// take it mid-turn. (When it was taken, MessageDelivered follows at once and drops it.)
const heldMessage = (s: RunDecideState, d: { messageId: string; text: string; delivery: 'Resume' | 'Hold' }): HeldMessage => {
  const live = d.delivery === 'Resume' && s.lifecycle === 'active' && !s.paused && s.step?.kind === 'agent';
  return live ? { id: d.messageId, text: d.text, forStep: s.step!.stepId } : { id: d.messageId, text: d.text };
};

const undeliver = (s: RunDecideState, id: string): RunDecideState => {
  const m = s.held.find((h) => h.id === id);
  if (!m) return s;
  return { ...s, held: s.held.filter((h) => h.id !== id) };
};

const withoutMerging = ({ merging: _done, ...s }: RunDecideState): RunDecideState => s;
// a folder merged is no longer pending; the merge has ended once none is
const withoutPending = (s: RunDecideState, folder: string): RunDecideState => {
  const left = s.merging?.folders.filter((f) => f.folder !== folder) ?? [];
  return left.length > 0 && s.merging ? { ...s, merging: { ...s.merging, folders: left } } : withoutMerging(s);
};

const sessionStarted = (s: RunDecideState, sessionId: string): RunDecideState => {
  const node = s.step?.node ?? '';
  const harness = s.step?.harness;
  return { ...s, sessions: { ...s.sessions, [node]: sessionId }, ...(harness ? { lastSession: { harness, node, sessionId } } : {}) };
};

export const createdDecideState = (e: Extract<RunEvent, { type: 'RunCreated' }>, at: string): RunDecideState => ({
  runId: e.data.runId, projectId: e.data.projectId, title: e.data.title, goal: e.data.goal, workflow: e.data.workflow,
  inputs: e.data.inputs, harness: e.data.harness, model: e.data.model, updatedAt: at, lifecycle: 'created', ending: null, endReason: null, queuePriority: Date.parse(at),
  paused: false, node: null, step: null, previous: null, question: null, answered: {}, held: [], sessions: {},
  harnessOverride: null, checkouts: null, archived: false, resolved: false, pullRequests: [], restartedAs: null, stepCount: 0,
  seq: 0, position: 0, unreadable: null, ...(e.data.continues ? { continues: e.data.continues } : {}), ...(e.data.attempt ? { attempt: e.data.attempt } : {}),
  ...(e.data.budgetUsd !== undefined ? { budgetUsd: e.data.budgetUsd } : {}),
  // a fork stands where its source stood after the step it was made from
  ...(e.data.forkedFrom ? { forkedFrom: e.data.forkedFrom, node: e.data.forkedFrom.node, previous: e.data.forkedFrom.previous } : {}),
  ...(e.data.by.kind === 'supervisor' && e.data.by.name ? { startedBySupervisor: e.data.by.name } : {}),
});

export const evolveRun = (s: RunDecideState, e: RunEvent): RunDecideState => {
  switch (e.type) {
    case 'RunCreated': return s;
    case 'RunQueued': return { ...s, lifecycle: 'queued' };
    case 'RunMovedToFront': return { ...s, queuePriority: e.data.priority };
    case 'RunStarted': return { ...started(s), node: s.node ?? e.data.node };
    case 'WorktreesPrepared': return { ...s, checkouts: e.data.checkouts };
    case 'WorkKept': return { ...s, keptWork: e.data.kept };
    case 'WorktreesRestored': { const { keptWork: _kept, ...rest } = s; return { ...rest, checkouts: e.data.checkouts }; }
    case 'WorktreesRemoved': return { ...s, checkouts: null, ...(s.checkouts ? { removedCheckouts: s.checkouts } : {}) };
    case 'StepStarted': {
      const step: StepInFlight = { stepId: e.data.stepId, node: e.data.node, kind: e.data.kind, attempt: e.data.attempt, startedAt: s.updatedAt, harness: e.data.harness, endsAt: e.data.endsAt };
      const delivered = new Set(e.data.messages ?? []);
      return {
        ...s, step, node: e.data.node, stepCount: s.stepCount + 1, paused: e.data.kind === 'gate' ? true : s.paused, held: s.held.filter((m) => !delivered.has(m.id)),
        ...(e.data.harness ? { lastHarness: e.data.harness } : {}),
      };
    }
    case 'StepSessionStarted': return sessionStarted(s, e.data.sessionId);
    case 'StepProcessStarted': return s.step?.stepId === e.data.stepId ? { ...s, step: { ...s.step, process: { pid: e.data.pid, startTime: e.data.startTime } } } : s;
    case 'StepProcessKilled': return s;
    case 'OutcomeReported': return s.step?.stepId === e.data.stepId ? { ...s, step: { ...s.step, reported: { outcome: e.data.outcome, summary: e.data.summary } } } : s;
    case 'StepSucceeded': return s.step?.stepId === e.data.stepId ? afterStep(settled({ ...s, paused: false }), e.data.node, 'success', e.data.summary) : s;
    case 'StepFailed': return s.step?.stepId === e.data.stepId ? afterStep(settled(s), e.data.node, 'failure', e.data.summary) : s;
    case 'StepInterrupted': return s.step?.stepId === e.data.stepId ? interrupted(s, e.data.reason) : s;
    case 'AgentReplied': return s;
    // the reason is read only while paused (other moves clear `paused` without clearing it)
    case 'RunPaused': return { ...unpaused(s), paused: true, ...(e.data.reason ? { pauseReason: e.data.reason } : {}) };
    case 'RunResumed': return s.lifecycle === 'created' ? s : unpaused(s);
    case 'RunRetried': return { ...reopen(s), paused: false, node: s.node ?? s.previous?.node ?? null, sessions: {} };
    case 'RunRestarted': return { ...s, restartedAs: e.data.as };
    case 'RunFollowedUp': return { ...s, continuedBy: [...(s.continuedBy ?? []), e.data.as] };
    case 'RunAborted': return ended(s, 'Aborted', e.data.reason ?? 'aborted');
    case 'HarnessChanged': return { ...settled(reopen(s)), paused: false, harnessOverride: e.data.harness, node: s.step?.node ?? s.node ?? s.previous?.node ?? null, sessions: {} };
    case 'Jumped': return { ...reopen(s), paused: false, node: e.data.node };
    case 'WaitSkipped': return s;
    case 'RunSucceeded': return ended(s, 'Succeeded', null);
    case 'RunFailed': return ended(s, 'Failed', e.data.reason);
    case 'GoalRevised': return { ...s, goal: e.data.goal };
    case 'MessageSent': return { ...s, held: [...s.held, heldMessage(s, e.data)], sentMessages: [...(s.sentMessages ?? []), e.data.messageId] };
    case 'ReviewSubmitted': return { ...s, reviewIds: [...(s.reviewIds ?? []), e.data.reviewId] };
    case 'MessageDelivered': return { ...s, held: s.held.filter((m) => m.id !== e.data.messageId) };
    case 'MessageUndelivered': return undeliver(s, e.data.messageId);
    case 'QuestionAsked': return { ...s, question: { id: e.data.questionId, stepId: e.data.stepId, prompt: e.data.prompt, options: e.data.options, allowText: e.data.allowText } };
    case 'QuestionAnswered': return { ...s, question: null, answered: { ...s.answered, [e.data.questionId]: 'answered' } };
    case 'QuestionWithdrawn': return { ...s, question: s.question?.id === e.data.questionId ? null : s.question, answered: { ...s.answered, [e.data.questionId]: 'withdrawn' } };
    case 'RunArchived': return { ...s, archived: true };
    case 'RunUnarchived': return { ...s, archived: false };
    case 'RunResolved': return { ...s, resolved: true };
    case 'RunHandedOver': return { ...s, handedTo: e.data.to };
    case 'PullRequestDelivered': return { ...s, pullRequests: [...s.pullRequests, e.data.pullRequest] };
    case 'ServiceNoted': return s;
    case 'PullRequestChecksFailed': return s;
    case 'QuotaHit': return quotaHit(s, e.data);
    case 'QuotaWaitEnded': return s.step?.stepId === e.data.stepId ? interrupted(s, `the quota window of ${s.step.quota?.harness ?? 'the harness'} ended`) : s;
    case 'QueueHeld': return s.lifecycle === 'queued' ? { ...s, queueHeld: { harness: e.data.harness, until: e.data.until } } : s;
    case 'AutoMergeDecided': case 'PullRequestMerged': return s;
    case 'PullRequestOpened': return { ...s, pullRequests: [...s.pullRequests, e.data.pullRequest] };
    case 'RunMerged': return { ...withoutPending(s, e.data.folder), merges: [...(s.merges ?? []), { folder: e.data.folder, method: e.data.method, base: e.data.base, commit: e.data.commit, at: s.updatedAt }] };
    case 'MergeStarted': return { ...s, merging: { method: e.data.method, at: s.updatedAt, by: e.data.by, folders: e.data.folders.map((f) => ({ ...f })) } };
    case 'MergeAbandoned': return withoutMerging(s);
    case 'BaseUpdated': return { ...s, baseUpdates: { ...s.baseUpdates, [e.data.folder]: { mode: e.data.mode, head: e.data.head } } };
    case 'BaseUpdateConflicted': return { ...s, baseUpdates: { ...s.baseUpdates, [e.data.folder]: { mode: e.data.mode, files: e.data.files, ...(e.data.handedTo ? { handedTo: e.data.handedTo } : {}) } } };
    case 'AttemptKept': return { ...s, kept: { at: s.updatedAt, archived: e.data.archived ?? [] } };
    case 'UsageRecorded': return { ...s, usage: addTurn(s.usage ?? NO_USAGE, e.data, s.updatedAt) };
    case 'BudgetRaised': return { ...s, budgetUsd: e.data.budgetUsd };
    case 'PullRequestWatchStarted': case 'PullRequestCycleStarted': case 'PullRequestCycleEnded': case 'PullRequestThreadsAnswered': case 'PullRequestLoopLimitReached': {
      const prWatch = evolveWatch(s.prWatch, e);
      return prWatch ? { ...s, prWatch } : s;
    }
    case 'SnapshotTaken': return s;
    case 'SnapshotFailed': return s;
  }
};

/** Folds a stored event onto the decide state, keeping seq, position and the time of the last change. */
export const applyStoredDecide = (s: RunDecideState, e: RunEvent & { seq: number; at: string }): RunDecideState => {
  const folded = evolveRun({ ...s, updatedAt: e.at }, e);
  const { snapshotDue: _due, stepEnds: _ends, ...rest } = folded;
  const next = { ...rest, ...evolveStepEnds(folded, e, s.step !== null && folded.step === null) };
  return { ...next, seq: e.seq, updatedAt: e.at, position: QUIET_EVENTS.has(e.type) ? s.position : e.seq };
};

export const currentNodeOf = (s: RunDecideState) => (s.node ? findNode(s.workflow, s.node) : undefined);
