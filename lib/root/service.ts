import { sandboxChoice } from '../service/sandbox.js';
import { join } from 'node:path';
import { isRight, left, right } from 'fp-ts/lib/Either.js';
import { notFound, unavailable, type Outcome } from '../../commands/refusal.js';
import { findProject, primaryFolderPath } from '../../projections/projects.js';
import { httpRun } from '../read-models/run-views.js';
import { standingOf } from '../../projections/standing.js';
import { effectiveFeed } from '../release/available.js';
import { ReleaseCheck } from '../release/check.js';
import { packageId } from '../release/package-name.js';
import type { Catalog } from '../workflows/catalog.js';
import type { Triggers } from '../triggers/triggers.js';
import type { Actor, ControlInput, FollowUpWhat, ForkInput, ProjectView, StartRunInput } from '../../domain/runs.js';
import type { HttpRun, RunSummary } from '../../projections/run-shapes.js';
import type { ServiceApi } from '../service/api.js';
import type { SettingChange, SettingSource } from '../../domain/settings.js';
import { runUrlOf, type ServiceCore } from '../service/core.js';
import { detailOf, queueHoldOf, summaryOf } from '../read-models/run-detail.js';
import { usageOfRun } from '../../projections/run-usage.js';
import { exportRun } from '../read-models/export-run.js';
import { activityPage, historyPage, logPage, threadPage } from '../read-models/pages.js';
import * as projects from '../service/projects.js';
import * as commands from '../service/run-commands.js';
import { followUp } from '../service/follow-ups.js';
import { keepAttempt, keepKeeping } from '../service/attempts.js';
import { archiveKeeping } from '../service/keeping.js';
import { compareRuns } from '../read-models/compare.js';
import { fork } from '../service/forks.js';
import { readPullRequest, readRunWorktree, secureRunWork } from '../service/run-git.js';
import { openPullRequest, pullRequestDraft, type OpenPullRequestInput } from '../service/ship-pr.js';
import { updateRunFromBase } from '../service/ship-local.js';
import { mergeRun } from '../service/merge-local.js';
import { checkPullRequestNow } from '../service/pr-check.js';
import { readReviews, submitReview } from '../service/reviews.js';
import type { ReviewInputOf } from '../inputs/review.js';
import * as settings from '../service/settings.js';
import { WaitHub } from '../read-models/wait.js';
import { EventsHub } from '../push/hub.js';
import { listedRun, RunsListCache } from '../read-models/runs-list.js';
import { chatList, chatPage, writeChat } from './supervisor-chat.js';
import { SupervisorLoop } from './supervisor-loop.js';
import { notifierFor } from '../notify/wire.js';
import { boardJson } from '../read-models/runs-board.js';
import { runNeeds } from '../../projections/needs-you.js';
import { UsageIndex, type UsageQuest } from '../read-models/usage.js';
import type { UsageGroupBy } from '../../domain/usage.js';
import { localDay } from '../../projections/usage-days.js';
import { startNeeds } from '../service/start-readiness.js';
import type { HarnessName } from '../../domain/workflow.js';
import { PreviewManager } from '../preview/manager.js';
import { previewsStream } from '../state/previews.js';
import { DEFAULT_PREVIEW_LIMITS, type PreviewCommand } from '../../domain/preview.js';
import { WorkerPool } from './workers-pool.js';
import { moveRun } from '../service/move-run.js';
import { withRuns } from '../read-models/machines-list.js';

// The facade: every door (HTTP, MCP, CLI, app) calls these methods. Each one decodes nothing and
// holds no rule of its own: it finds the state, asks a command's decide or a projection, and maps.

export class Service implements ServiceApi {
  private readonly list: RunsListCache;
  private readonly waits: WaitHub;
  private readonly usageIndex: UsageIndex;
  /** the push stream's source (GET /api/events) */
  readonly events: EventsHub;
  /** `available` in health: the release feed, checked in the background */
  readonly releases: ReleaseCheck;
  /** the live supervisor agents, started with the engine, running while the feature is on */
  readonly supervisorLoop: SupervisorLoop;
  /** the notification command (lib/notify), started with the engine */
  readonly notify: ReturnType<typeof notifierFor>;
  /** the runs' previews (lib/preview), started with the engine */
  readonly previews: PreviewManager;
  /** the machines that run steps for this server (docs/workers.md); its hub starts only when workers are on */
  readonly workers: WorkerPool;

  /** trigger rules and their sources (lib/triggers); sources run once the engine starts */
  constructor(readonly core: ServiceCore, readonly catalog: Catalog, readonly triggers: Triggers) {
    this.supervisorLoop = new SupervisorLoop(core);
    this.notify = notifierFor(core);
    this.previews = new PreviewManager({
      journal: core.journal, stream: previewsStream(core.journal),
      run: (id) => core.runs.get(id), project: (id) => core.projects.current.get(id),
      limits: () => core.settings.current.previews ?? DEFAULT_PREVIEW_LIMITS,
      log: (runId, text) => void core.logs.write(runId, 'service', text),
      clock: core.clock, baseUrl: () => core.baseUrl,
      sandbox: (run) => sandboxChoice(core, run, 'command'),
    });
    this.workers = new WorkerPool(core);
    this.waits = new WaitHub(core, core.journal);
    this.list = new RunsListCache(core.runs, core.journal);
    this.usageIndex = new UsageIndex(core.runs, core.journal, (groupBy, key) => usageLabel(core, groupBy, key), core.projects.stream);
    this.events = new EventsHub(core, (id) => this.list.entry(id));
    this.releases = new ReleaseCheck({
      running: core.version, now: () => core.now(), cache: core.store.db('release-check'),
      feed: () => effectiveFeed(core.settings.current.releaseFeed, packageId()),
    });
  }

  health() {
    return { version: this.core.version, available: this.releases.available(), projects: this.core.projects.current.size, runs: this.core.runs.size };
  }

  private visible() {
    return [...this.core.runs.all()].filter((s) => !s.archived);
  }

  listRuns(filter: { standing?: string; project?: string } = {}): readonly RunSummary[] {
    const project = filter.project ? findProject(this.core.projects.current, filter.project) : undefined;
    if (filter.project && !project) return [];
    return this.visible()
      .filter((s) => (!project || s.projectId === project.id) && (!filter.standing || standingOf(s) === filter.standing))
      .sort((a, b) => (a.runId < b.runId ? 1 : -1))
      .map((s) => summaryOf(this.core, s));
  }

  listHttpRuns(): readonly HttpRun[] {
    return this.visible().sort((a, b) => (a.runId < b.runId ? 1 : -1)).map(listedRun);
  }

  /** GET /api/runs body: kept one run at a time, never rebuilt whole per request. */
  httpRunsJson(): string {
    return this.list.json();
  }

  /** The app's runs board: every run's BoardRow as JSON, newest first (archived ones when asked). */
  /** `needs`: only the runs that need a person (the app's shell counts them on every page) */
  boardJson(archived: boolean, needs = false): string {
    const runs = needs ? [...this.core.runs.all()].filter((s) => runNeeds(s) !== null) : this.core.runs.all();
    return boardJson(runs, archived, (id) => this.list.entry(id), (s) => queueHoldOf(this.core, s));
  }

  /** Names the current GET /api/runs body without building it: an ETag's worth. */
  httpRunsVersion(): string {
    return this.list.version;
  }

  /** GET /api/usage: sums kept by the usage read model; days are the service's local days */
  usage(q: UsageQuest) {
    return this.usageIndex.query(q, localDay(this.core.now().toISOString()));
  }

  getRun(runId: string) {
    const s = this.core.runs.get(runId);
    return s ? right(detailOf(this.core, s)) : left(notFound('run', runId));
  }

  getHttpRun(runId: string) {
    const s = this.core.runs.get(runId);
    return s ? right({ ...httpRun(s), usage: usageOfRun(s) }) : left(notFound('run', runId));
  }

  /** the workers with the runs each holds now, and this machine's own row (the Machines page) */
  async listWorkers() {
    return withRuns(this.core, await this.workers.list());
  }

  listProjects(): readonly ProjectView[] {
    return [...this.core.projects.current.values()];
  }

  startRun(input: StartRunInput, by: Actor) { return commands.startRun(this.core, input, by); }
  /** which harnesses a start would need, and whether it would be refused for one (the New run form) */
  startNeeds(q: { project: string; workflow?: string; harness?: HarnessName }) { return startNeeds(this.core, q); }
  control(runId: string, input: ControlInput, by: Actor) { return commands.control(this.core, runId, input, by); }
  /** "Move to…": the machine for the run's next agent steps ('here' or a worker's id) */
  moveRun(runId: string, to: string, by: Actor) {
    const moved = moveRun(this.core, runId, to, by);
    if (isRight(moved)) this.workers.moved(runId, moved.right.to);
    return moved;
  }
  followUp(runId: string, what: FollowUpWhat, by: Actor) { return followUp(this.core, runId, what, by); }
  fork(runId: string, input: ForkInput, by: Actor) { return fork(this.core, runId, input, by); }
  reviseGoal(runId: string, goal: string, reason: string | undefined, by: Actor) { return commands.reviseGoal(this.core, runId, goal, reason, by); }
  message(runId: string, text: string, delivery: 'Resume' | 'Hold', reason: string | undefined, by: Actor) { return commands.message(this.core, runId, text, delivery, reason, by); }
  answer(runId: string, questionId: string, answer: string | readonly string[], reason: string | undefined, by: Actor) { return commands.answer(this.core, runId, questionId, answer, reason, by); }
  archive(runId: string, state: 'Archived' | 'Active', reason: string | undefined, by: Actor) { return commands.archive(this.core, runId, state, reason, by); }
  resolve(runId: string, reason: string | undefined, by: Actor) { return commands.resolve(this.core, runId, reason, by); }
  keepAttempt(runId: string, abortOthers: boolean, reason: string | undefined, by: Actor) { return keepAttempt(this.core, runId, abortOthers, reason, by); }
  /** what Archive would keep of the run's worktrees (or Unarchive restore), said before a person confirms */
  archiveKeeping(runId: string) { return archiveKeeping(this.core, runId); }
  /** what "Keep this one" would archive, and what that keeps of each */
  keepKeeping(runId: string) { return keepKeeping(this.core, runId); }
  /** two runs of one project side by side (GET /api/compare) */
  compare(a: string, b: string) { return compareRuns(this.core, a, b); }

  private known<T>(runId: string, f: () => T): Outcome<T> {
    return this.core.runs.get(runId) ? right(f()) : left(notFound('run', runId));
  }

  readThread(runId: string, before: number | undefined, pageSize: number) {
    return this.known(runId, () => threadPage(this.core.journal, runId, before, pageSize));
  }
  readHistory(runId: string, before: number | undefined, pageSize: number) {
    return this.known(runId, () => historyPage(this.core.journal, runId, before, pageSize));
  }
  /** after the log store's pending batch is written: a run that has ended reads every line it wrote */
  async readLog(runId: string, before: number | undefined, pageSize: number) {
    await this.core.logs.flushed();
    return this.known(runId, () => logPage(this.core.logs, runId, before, pageSize));
  }
  readActivity(runId: string, before: number | undefined, pageSize: number) {
    return this.known(runId, () => activityPage(this.core.logs, runId, before, pageSize));
  }
  /** one activity row with its whole output */
  readActivityRow(runId: string, rowId: number) {
    if (!this.core.runs.get(runId)) return left(notFound('run', runId));
    const row = this.core.logs.activity.get(runId, rowId);
    return row ? right({ row }) : left(notFound('activity row', String(rowId)));
  }

  async exportRun(runId: string) {
    const s = this.core.runs.get(runId);
    if (!s) return left(notFound('run', runId));
    try {
      return right(await exportRun(this.core.home, this.core.journal, this.core.logs, runId, detailOf(this.core, s)));
    } catch (err) {
      // The machine's fault (a full disk, an exports path that is not a folder), not the caller's:
      // said plainly, with the path, rather than as an internal error. The run is untouched.
      const e = err as NodeJS.ErrnoException;
      if (!e.code) throw err;
      return left(unavailable(`could not write the export under ${join(this.core.home, 'exports')}: ${e.message}`));
    }
  }

  waitForRun(runId: string, timeoutMs: number, signal?: AbortSignal) { return this.waits.wait(runId, timeoutMs, signal); }
  /** how many wait_for_run calls are held open now, over every door */
  get waiting(): number { return this.waits.size; }

  runUrl(runId: string): string {
    return runUrlOf(this.core, runId);
  }

  private projectRef(idOrName: string) {
    const p = findProject(this.core.projects.current, idOrName);
    return p ? right({ primaryFolderPath: primaryFolderPath(p), defaultWorkflow: p.defaultWorkflow }) : left(notFound('project', idOrName));
  }

  listWorkflows(project: string) {
    const ref = this.projectRef(project);
    return ref._tag === 'Left' ? ref : right({ workflows: this.catalog.list(ref.right) });
  }
  readWorkflow(project: string, workflow: string) {
    const ref = this.projectRef(project);
    if (ref._tag === 'Left') return ref;
    const w = this.catalog.read(ref.right, workflow);
    return w ? right(w) : left(notFound('workflow', workflow));
  }
  validateWorkflow(project: string, workflow: string) {
    const ref = this.projectRef(project);
    if (ref._tag === 'Left') return ref;
    const v = this.catalog.validate(ref.right, workflow);
    return v ? right(v) : left(notFound('workflow', workflow));
  }

  submitReview(runId: string, input: ReviewInputOf, by: Actor) { return submitReview(this.core, runId, input, by); }
  readReviews(runId: string) { return readReviews(this.core, runId); }
  readRunWorktree(runId: string) { return readRunWorktree(this.core, runId); }
  secureRunWork(runId: string, reason: string | undefined, by: Actor) { return secureRunWork(this.core, runId, reason, by); }
  readPullRequest(address: { run?: string; project?: string; number?: number }) { return readPullRequest(this.core, address); }
  // Shipping from the app (docs/shipping.md)
  openPullRequest(runId: string, input: OpenPullRequestInput, by: Actor) { return openPullRequest(this.core, runId, input, this.runUrl(runId), by); }
  pullRequestDraft(runId: string) { return pullRequestDraft(this.core, runId, this.runUrl(runId)); }
  mergeRun(runId: string, method: 'fast-forward' | 'merge' | 'squash', by: Actor) { return mergeRun(this.core, runId, method, this.runUrl(runId), by); }
  updateFromBase(runId: string, input: { mode: 'merge' | 'rebase'; onConflict?: 'agent' | 'leave' }, by: Actor) { return updateRunFromBase(this.core, runId, input, by); }
  checkPullRequestNow(runId: string) { return checkPullRequestNow(this.core, runId); }

  // Projects and settings (HTTP and CLI).
  addProject(name: string, folders: readonly projects.FolderRequest[]) { return projects.addProject(this.core, name, folders); }
  renameProject(id: string, name: string) { return projects.renameProject(this.core, id, name); }
  addFolder(id: string, folder: projects.FolderRequest) { return projects.addFolder(this.core, id, folder); }
  removeFolder(id: string, name: string) { return projects.removeFolder(this.core, id, name); }
  chooseDefaultWorkflow(id: string, workflow: string) { return projects.chooseDefaultWorkflow(this.core, id, workflow); }
  getProject(idOrName: string) { return projects.getProject(this.core, idOrName); }
  settings() { return this.core.settings.current; }
  startPreview(runId: string) { return this.previews.begin(runId); }
  stopPreview(runId: string) { return this.previews.stop(runId, 'stopped'); }
  preview(runId: string) { return this.previews.view(runId); }
  runningPreviews() { return this.previews.running(); }
  setProjectPreview(project: string, preview: PreviewCommand | null) {
    const found = findProject(this.core.projects.current, project);
    return found ? projects.updateProject(this.core, found.id, { preview }) : left(notFound('project', project));
  }
  changeSetting(change: SettingChange, source: SettingSource) { return settings.changeSetting(this.core, change, source); }
  recentSettingChanges(limit?: number) { return settings.recentChanges(this.core, limit); }
  recordTokenRegenerated(source: SettingSource) { settings.recordTokenRegenerated(this.core, source); }

  // A supervisor's chat (HTTP).
  readChat(supervisorId: string, before: number | undefined, pageSize: number) { return chatPage(this.core, supervisorId, before, pageSize); }
  /** every supervisor's chat (GET /api/chats) */
  listChats() { return chatList(this.core); }
  writeChat(supervisorId: string, text: string, sender: string | null) { return writeChat(this.core, this.supervisorLoop, supervisorId, text, sender); }
}

// Names are read when asked: a project renamed or a run retitled shows its name of today.
const usageLabel = (core: ServiceCore, groupBy: UsageGroupBy, key: string): string => {
  if (groupBy === 'project') return core.projects.current.get(key)?.name ?? key;
  if (groupBy === 'run') return core.runs.get(key)?.title ?? key;
  if (groupBy === 'model' && key === '') return 'not reported';
  return key;
};
