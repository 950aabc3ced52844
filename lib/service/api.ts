import type { UsageQuest } from '../read-models/usage.js';
import type { UsageAnswer } from '../read-models/usage-answer.js';
import type { Outcome } from '../../commands/refusal.js';
import type { ReviewInputOf } from '../inputs/review.js';
import type { Actor, ControlInput, FollowUpWhat, ForkInput, ProjectView, PullRequestRef, StartedAttempt, StartRunInput, WaitChange, WorkflowListItem } from '../../domain/runs.js';
import type { HttpRun, RunDetail, RunSummary } from '../../projections/run-shapes.js';
import type { PreviewCommand, PreviewView } from '../../domain/preview.js';

// The one door into the service for the HTTP routes, the MCP tools, the CLI and the browser app.
// Input here is already decoded (plain types); every answer is Either<Refusal, T>.

export interface ServiceApi {
  health(): { version: string; available: { _tag: string; running?: string }; projects: number; runs: number };
  listRuns(filter?: { standing?: string; project?: string }): readonly RunSummary[];
  listHttpRuns(): readonly HttpRun[];
  getRun(runId: string): Outcome<RunDetail>;
  getHttpRun(runId: string): Outcome<HttpRun>;
  listProjects(): readonly ProjectView[];
  /** the machines that run steps for this server: online or lost, slots, harnesses (docs/workers.md) */
  listWorkers(): Promise<{ workers: readonly unknown[]; hub: string | null }>;
  /** with `attempts`, the first attempt's run id and every attempt's */
  startRun(input: StartRunInput, by: Actor): Outcome<{ runId: string; attempts?: readonly StartedAttempt[] }>;
  control(runId: string, input: ControlInput, by: Actor): Outcome<{ outcome: 'Applied' | 'Stale'; run: RunDetail }>;
  /** "Move to…": the machine for the run's next agent steps, 'here' or a worker's id (docs/workers.md) */
  moveRun(runId: string, to: string, by: Actor): Outcome<{ run: RunDetail; to: string }>;
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
  /** a run's preview (docs/preview.md): start answers at once, while setup and the server start */
  startPreview(runId: string): Promise<Outcome<PreviewView>>;
  stopPreview(runId: string): Promise<Outcome<PreviewView>>;
  preview(runId: string): Outcome<PreviewView>;
  setProjectPreview(project: string, preview: PreviewCommand | null): Outcome<ProjectView>;
}
