import type { UsageView } from '../projections/run-usage.js';
import type { UsageQuest } from './read-models/usage.js';
import type { UsageAnswer } from './read-models/usage-answer.js';
import type { Outcome } from '../commands/refusal.js';
import type { ReviewInputOf } from './inputs/review.js';
import type { HarnessName, Origin } from './workflows/model.js';

// The one door into the service for the HTTP routes, the MCP tools, the CLI and the browser app.
// Input here is already decoded (plain types); every answer is Either<Refusal, T>.

export const STANDINGS = ['Created', 'Queued', 'Running', 'Question', 'Waiting', 'Paused', 'Succeeded', 'Failed', 'Aborted'] as const;
export type Standing = (typeof STANDINGS)[number];

export const ACTIONS = ['Pause', 'Resume', 'Retry', 'ChangeHarness', 'Jump', 'SkipWait', 'Restart', 'Abort', 'MoveToFront'] as const;
export type Action = (typeof ACTIONS)[number];

/** who asked: a person in the app or over HTTP, an outside agent over MCP, a supervisor, or the engine itself */
export interface Actor {
  readonly kind: 'person' | 'agent' | 'supervisor' | 'engine';
  readonly name?: string;
}

export interface PullRequestRef {
  readonly repository: string;
  readonly number: number;
  readonly url: string;
}

export interface SettingValue<T> {
  readonly value: T;
  /** run, node, persona, workflow, settings or shipped */
  readonly source: 'run' | 'node' | 'persona' | 'workflow' | 'settings' | 'shipped';
}

export interface StepSettings {
  readonly persona: SettingValue<string | null>;
  readonly harness: SettingValue<HarnessName>;
  readonly model: SettingValue<string | null>;
  readonly tools: SettingValue<string>;
}

/** the trigger rule and event that started a run; present only on runs a trigger started */
export interface StartedBy {
  readonly rule: { readonly id: string; readonly name: string };
  readonly event: { readonly kind: string; readonly id: string; readonly summary: string; readonly url?: string };
}

/** what a follow-up is asked to do: a person's text, or the message text of a review sent to an ended run */
export type FollowUpWhat = { readonly text: string; readonly reason?: string } | { readonly review: string; readonly reason?: string };

/** MCP list shape */
export interface RunSummary {
  readonly id: string;
  readonly title: string;
  readonly workflow: string;
  readonly project: string; // project name
  readonly standing: Standing;
  readonly phase: string;
  readonly currentStep: string | null;
  readonly pullRequest: PullRequestRef | null;
  readonly pullRequests: readonly PullRequestRef[];
}

/** MCP detail shape (get_run) */
export interface RunDetail extends RunSummary {
  readonly projectId: string;
  readonly goal: string;
  readonly outcome?: string;
  readonly archived: boolean;
  readonly resolved: boolean;
  readonly currentStepToolClasses: readonly string[];
  readonly currentStepSettings: StepSettings | null;
  readonly allowedActions: readonly Action[];
  /** whether a goal revision would be taken now (the run has not ended, its history reads) */
  readonly canReviseGoal: boolean;
  readonly question?: { readonly id: string; readonly prompt: string; readonly options: readonly string[]; readonly allowText: boolean };
  readonly waitEndsAt?: string;
  /** why the run waits on a harness's quota window: a quota wait (until its waitEndsAt) or the queue holding it (docs/usage.md) */
  readonly waitingOn?: QuotaWaitingOn;
  /** a deliver step watching its pull request (docs/shipping.md): "watching pull request #4", "cycle 2 of 3: fixing `lint`" */
  readonly pullRequestLoop?: PullRequestLoopView;
  readonly startedBy?: StartedBy;
  readonly position: string;
  /** the supervisor that owns the run (handed to, else its project's, else the global one); null when none exists */
  readonly owner: string | null;
  readonly unreadableHistory?: string;
  /** messages the run ended with still held, which no agent ever saw (only when there are any) */
  readonly undeliveredMessages?: readonly { readonly id: string; readonly text: string; readonly reason: string }[];
  /** a follow-up: the ended run it continues on the same branch and worktrees */
  readonly continues?: string;
  /** the follow-ups made of this run, oldest first (only when there are any) */
  readonly continuedBy?: readonly string[];
  /** one of several attempts at the goal started together: its group, place, and whether it was kept */
  readonly attempt?: { readonly group: string; readonly index: number; readonly of: number; readonly kept: boolean };
  /** what its agent turns cost, in total and per step (docs/usage.md) */
  readonly usage: UsageView;
  /** the run's budget in US dollars, with what it has spent of it */
  readonly budget?: { readonly budgetUsd: number; readonly text: string };
  /** why the run is paused, while it is (a person's reason, a harness problem, `budget: ...`) */
  readonly pauseReason?: string;
  /** why a queued run is not started although a slot may be free (its project's daily budget) */
  readonly waiting?: string;
  /** a fork: the run and step end (seq, step) it was made from, and the note it was given */
  readonly forkedFrom?: ForkLink;
  /** the forks made of this run, oldest first (only when there are any) */
  readonly forks?: readonly string[];
  /** the step ends a fork can start from (each folder snapshotted), oldest first (only when there are any) */
  readonly forkable?: readonly { readonly at: number; readonly stepId: string; readonly node: string; readonly outcome: 'success' | 'failure' }[];
}

export interface ForkLink {
  readonly run: string;
  readonly at: number;
  readonly step: string;
  readonly note?: string;
}

/** POST /api/runs/{id}/forks and fork_run, decoded */
export interface ForkInput {
  readonly at: number;
  readonly goal?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly note?: string;
  readonly reason?: string;
}

export interface PullRequestLoopView {
  readonly number: number;
  readonly url: string;
  /** cycles started, and the step's limit */
  readonly cycle: number;
  readonly of: number;
  readonly running: boolean;
  readonly text: string;
}

/** HTTP API shape */
export interface HttpRun {
  readonly runId: string;
  readonly title: string;
  readonly workflowName: string;
  readonly goal: string;
  readonly project: string; // project id
  readonly standing: Standing;
  readonly phase: string;
  readonly currentStep: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly outcome?: string;
  readonly startedBy?: StartedBy;
  readonly continues?: string;
  readonly continuedBy?: readonly string[];
  /** GET /api/runs/{id} only (not the list): what its agent turns cost */
  readonly usage?: UsageView;
}

export interface ProjectView {
  readonly id: string;
  readonly name: string;
  readonly folders: readonly { readonly name: string; readonly path: string }[];
  readonly primaryFolder: string;
  readonly defaultWorkflow: string;
  /** merge the runs' pull requests once green and approved (docs/shipping.md); null: off, the default */
  readonly autoMerge: { readonly method: 'squash' | 'merge' | 'rebase' } | null;
  /** what the project's runs may spend per local day, in US dollars (docs/usage.md) */
  readonly dailyBudgetUsd?: number;
}

export interface StartRunInput {
  readonly project: string;
  readonly goal: string;
  readonly workflow?: string;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly title?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly start?: boolean;
  readonly reason?: string;
  /** the goal on several agents at once: one sibling run per item, grouped (not with harness/model) */
  readonly attempts?: readonly AttemptAgent[];
  /** the run pauses before its next step once its known spend reaches this many US dollars */
  readonly budgetUsd?: number;
}

export interface AttemptAgent {
  readonly harness: HarnessName;
  readonly model?: string;
}

/** a run started as one of several attempts on the goal */
export interface StartedAttempt extends AttemptAgent {
  readonly runId: string;
}

export interface ControlInput {
  readonly position: string;
  readonly action: Action;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly node?: string;
  readonly reason?: string;
  /** with Resume: the run's new budget (a run its budget paused goes on until this one) */
  readonly budgetUsd?: number;
}

export interface Page<K extends string, T, C> {
  readonly items: readonly T[];
  readonly key: K;
  readonly before: C | null;
}

export type WaitChange = 'Standing' | 'Question' | 'Ended' | 'AlreadyEnded' | 'Nothing';

export interface WorkflowListItem {
  readonly name: string;
  readonly description: string;
  readonly standing: 'default' | 'alternative';
  readonly origin: Origin;
  readonly inputs: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
}

export interface ServiceApi {
  health(): { version: string; available: { _tag: string; running?: string }; projects: number; runs: number };
  listRuns(filter?: { standing?: string; project?: string }): readonly RunSummary[];
  listHttpRuns(): readonly HttpRun[];
  getRun(runId: string): Outcome<RunDetail>;
  getHttpRun(runId: string): Outcome<HttpRun>;
  listProjects(): readonly ProjectView[];
  /** with `attempts`, the first attempt's run id and every attempt's */
  startRun(input: StartRunInput, by: Actor): Outcome<{ runId: string; attempts?: readonly StartedAttempt[] }>;
  control(runId: string, input: ControlInput, by: Actor): Outcome<{ outcome: 'Applied' | 'Stale'; run: RunDetail }>;
  /** a new run continuing an ended one on its branch and worktrees; `review`: a review's message text (reviews of ended runs) */
  followUp(runId: string, what: FollowUpWhat, by: Actor): Outcome<{ runId: string }>;
  /** a new run from a step end of this one (lib/service/forks.ts) */
  fork(runId: string, input: ForkInput, by: Actor): Outcome<{ runId: string }>;
  reviseGoal(runId: string, goal: string, reason: string | undefined, by: Actor): Outcome<{ run: RunDetail; goal: string }>;
  message(runId: string, text: string, delivery: 'Resume' | 'Hold', reason: string | undefined, by: Actor): Outcome<{ run: RunDetail; delivered: boolean; detail: string | null }>;
  answer(runId: string, questionId: string, answer: string | readonly string[], reason: string | undefined, by: Actor): Outcome<{ run: RunDetail; question: string; delivered: boolean; detail: string | null }>;
  /** `kept`: what the archive keeps of the worktrees (restored on unarchive), or what the unarchive restores */
  archive(runId: string, state: 'Archived' | 'Active', reason: string | undefined, by: Actor): Promise<Outcome<{ run: RunDetail; state: 'Archived' | 'Active'; kept: string }>>;
  resolve(runId: string, reason: string | undefined, by: Actor): Outcome<{ run: RunDetail }>;
  /** keep one attempt of a group: the others are archived (aborted first when `abortOthers`) */
  keepAttempt(runId: string, abortOthers: boolean, reason: string | undefined, by: Actor): Promise<Outcome<{ run: RunDetail; archived: readonly string[]; kept: string }>>;
  readThread(runId: string, before: number | undefined, pageSize: number): Outcome<{ rows: readonly unknown[]; before: string | null }>;
  readHistory(runId: string, before: number | undefined, pageSize: number): Outcome<{ events: readonly unknown[]; before: number | null }>;
  readLog(runId: string, before: number | undefined, pageSize: number): Promise<Outcome<{ lines: readonly unknown[]; before: number | null }>>;
  exportRun(runId: string): Promise<Outcome<{ path: string; size: number }>>;
  waitForRun(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<Outcome<{ run: RunDetail; changed: WaitChange }>>;
  runUrl(runId: string): string;
  listWorkflows(project: string): Outcome<{ workflows: readonly WorkflowListItem[] }>;
  readWorkflow(project: string, workflow: string): Outcome<unknown>;
  validateWorkflow(project: string, workflow: string): Outcome<unknown>;
  /** comments on lines of the run's diff, recorded and sent to its agent as one message (docs/app.md) */
  submitReview(runId: string, input: ReviewInputOf, by: Actor): Promise<Outcome<{ review: unknown; delivered: boolean; detail: string | null; run: RunDetail }>>;
  readReviews(runId: string): Promise<Outcome<{ reviews: readonly unknown[] }>>;
  readRunWorktree(runId: string): Promise<Outcome<{ run: RunDetail; folders: readonly unknown[] }>>;
  secureRunWork(runId: string, reason: string | undefined, by: Actor): Promise<Outcome<{ run: RunDetail; folders: readonly unknown[] }>>;
  readPullRequest(address: { run?: string; project?: string; number?: number }): Promise<Outcome<{ pullRequest: unknown }>>;
  /** push the run's branch (never forced) and open a pull request from it (docs/shipping.md) */
  openPullRequest(runId: string, input: { draft?: boolean; base?: string; title?: string; body?: string }, by: Actor): Promise<Outcome<{ run: RunDetail; pullRequest: PullRequestRef }>>;
  /** the title, body and base open_pull_request would use when given none */
  pullRequestDraft(runId: string): Outcome<{ title: string; body: string; base: string | null }>;
  /** merge the run's branch into the base branch of the project's own checkout (never forced) */
  mergeRun(runId: string, method: 'fast-forward' | 'merge' | 'squash', by: Actor): Promise<Outcome<{ run: RunDetail; merged: readonly unknown[] }>>;
  /** bring the base branch into the run's branch; conflicts aborted, and handed to the agent when asked */
  updateFromBase(runId: string, input: { mode: 'merge' | 'rebase'; onConflict?: 'agent' | 'leave' }, by: Actor): Promise<Outcome<{ run: RunDetail; folders: readonly unknown[]; handedTo: string | null }>>;
  /** the pull request loop reads the run's pull request now rather than at its next poll */
  checkPullRequestNow(runId: string): Promise<Outcome<{ pullRequest: number; cycleRunning: boolean }>>;
  /** what runs cost, summed per day, project, harness, model, workflow or run (docs/usage.md) */
  usage(q: UsageQuest): Outcome<UsageAnswer>;
}

/** "waiting: claude limited until 14:05": the harness and when its window ends (null: not known) */
export interface QuotaWaitingOn {
  readonly harness: HarnessName;
  readonly until: string | null;
  /** the CLI's own words when the run's step hit the limit (absent for a queued run held for another run's hit) */
  readonly evidence?: string;
}
