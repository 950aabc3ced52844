import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Journal } from '../../journal/journal.js';
import type { PreviewEvent } from '../../journal/preview-events.js';
import { subscribeRuns } from '../../journal/typed-subscribe.js';
import type { Previews } from '../../projections/previews.js';
import { runningPreviews } from '../../projections/previews.js';
import type { RunState } from '../../projections/run-state.js';
import { decidePreviewStarted, decidePreviewStopped, decideSetupRan, decideStartPreview } from '../../commands/previews.js';
import { conflict, refusalText, type Outcome, type Refusal } from '../../commands/refusal.js';
import { previewPath, type PreviewLimits, type PreviewStopReason, type PreviewView } from '../../domain/preview.js';
import type { ProjectView } from '../../domain/runs.js';
import type { SingleStream } from '../state/event-stream.js';
import type { Clock } from '../clock.js';
import { endGroup } from '../harness/process-group.js';
import { previewCommandOf } from './command.js';
import { launch, untilAnswers } from './launch.js';
import { boxFor } from './box.js';
import type { PreviewTarget } from './ports.js';
import type { SandboxChoice } from '../sandbox/sandbox.js';
import { previewView, type Live } from './view.js';

// The previews of runs (docs/preview.md): at most `limit` at once, each stopped by Stop, on archive,
// after its idle time, with the run when a workflow step started it, and when svc stops. Every start
// and stop is recorded, so a restart ends what a killed server left (the lifeline ends it first).

export interface PreviewDeps {
  readonly journal: Journal;
  readonly stream: SingleStream<Previews, PreviewEvent>;
  readonly run: (runId: string) => RunState | undefined;
  readonly project: (projectId: string) => ProjectView | undefined;
  readonly limits: () => PreviewLimits;
  readonly log: (runId: string, text: string) => void;
  readonly clock: Clock;
  readonly baseUrl: () => string;
  /** svc's sandbox for the run's command steps, or why there is none (lib/service/sandbox.ts) */
  readonly sandbox: (run: RunState) => SandboxChoice;
}

export class PreviewManager {
  private readonly live = new Map<string, Live>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly d: PreviewDeps) {}

  private record(decide: (s: Previews) => Either<Refusal, readonly PreviewEvent[]>): void {
    this.d.stream.transact(decide, { at: this.d.clock.now().toISOString(), onStale: 'retry' });
  }

  /** ends what a killed server left running (recorded, not stopped), then follows archives and run ends */
  async start(): Promise<void> {
    for (const p of runningPreviews(this.d.stream.current)) {
      const ended = p.leader ? await endGroup(p.leader) : { processes: 0, gone: true };
      const detail = ended.processes > 0 ? `${ended.processes} leftover process(es) ended on restart` : null;
      this.record((s) => decidePreviewStopped(s, p.runId, 'server-stopped', detail));
    }
    this.unsubscribe = subscribeRuns(this.d.journal, (runId, events) => {
      if (events.some((e) => e.type === 'RunArchived')) void this.stop(runId, 'archived');
      const ended = events.some((e) => e.type === 'RunSucceeded' || e.type === 'RunFailed' || e.type === 'RunAborted');
      if (ended && this.live.get(runId)?.byStep) void this.stop(runId, 'run-ended');
    });
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await Promise.all([...this.live.keys()].map((id) => this.stop(id, 'server-stopped')));
  }

  view(runId: string): Outcome<PreviewView> {
    const run = this.d.run(runId);
    if (!run) return left({ _tag: 'NotFound', what: 'run', id: runId });
    const project = this.d.project(run.projectId);
    return right(previewView(runId, this.live.get(runId), this.d.stream.current.get(runId), project ? previewCommandOf(project) : { command: null, fileProblem: null }, this.d.baseUrl()));
  }

  /** the port a proxied request goes to, counted as use (it holds off the idle stop) */
  target(runId: string): PreviewTarget | undefined {
    const l = this.live.get(runId);
    if (!l || l.state !== 'running' || l.port === null) return undefined;
    l.lastRequest = this.d.clock.now().getTime();
    return { port: l.port, socket: l.socket };
  }

  async begin(runId: string, byStep = false): Promise<Outcome<PreviewView>> {
    if (this.live.has(runId)) return this.view(runId);
    const run = this.d.run(runId);
    const project = run ? this.d.project(run.projectId) : undefined;
    const found = project ? previewCommandOf(project) : { command: null, fileProblem: null };
    const ok = decideStartPreview({ runId, run: run ? { archived: run.archived, folders: run.checkouts?.length ?? 0 } : undefined, hasCommand: !!found.command, fileProblem: found.fileProblem });
    if (ok._tag === 'Left') return ok;
    const folder = folderOf(run!, project!);
    const boxing = boxFor(this.d.sandbox(run!), (text) => this.d.log(runId, text));
    if (boxing._tag === 'Refused') return left(conflict(boxing.detail));
    if (boxing._tag === 'Open') this.d.log(runId, `preview: runs outside svc's sandbox (${boxing.reason})`);
    const made = await this.makeRoom(runId);
    const box = boxing._tag === 'Boxed' ? boxing.box : null;
    const l: Live = { runId, state: 'setting-up', port: null, socket: null, box, leader: null, lastRequest: this.d.clock.now().getTime(), abort: new AbortController(), byStep, note: made, ready: Promise.resolve(false) };
    this.live.set(runId, l);
    l.ready = this.launch(l, folder, found.command!);
    return this.view(runId);
  }

  /** the previews answering now, for the board's cards */
  running(): readonly { readonly runId: string; readonly path: string }[] {
    return [...this.live.values()].filter((l) => l.state === 'running').map((l) => ({ runId: l.runId, path: previewPath(l.runId) }));
  }

  /** its URL through svc while it runs, else null ({{preview.url}} of later steps) */
  url(runId: string): string | null {
    return this.live.get(runId)?.state === 'running' ? `${this.d.baseUrl()}${previewPath(runId)}` : null;
  }

  /** a `kind=preview` step's start: the preview becomes the run's (stopped when it ends), answered once its port answers */
  async startForStep(runId: string): Promise<{ readonly ok: true; readonly url: string } | { readonly ok: false; readonly detail: string }> {
    const begun = await this.begin(runId, true);
    if (begun._tag === 'Left') return { ok: false, detail: refusalText(begun.left) };
    const url = (await this.ready(runId)) ? this.url(runId) : null;
    if (url) return { ok: true, url };
    const rec = this.d.stream.current.get(runId);
    return { ok: false, detail: rec?.stopDetail ?? rec?.stopReason ?? 'it stopped before its port answered' };
  }

  /** resolves once the preview answers (true) or is gone (false) */
  ready(runId: string): Promise<boolean> {
    return this.live.get(runId)?.ready ?? Promise.resolve(false);
  }

  private async makeRoom(runId: string): Promise<string | null> {
    const limit = this.d.limits().limit;
    if (this.live.size < limit) return null;
    const oldest = [...this.live.values()].sort((a, b) => a.lastRequest - b.lastRequest)[0]!;
    await this.stop(oldest.runId, 'limit', `to start the preview of run ${runId}`);
    const title = this.d.run(oldest.runId)?.title;
    return `Stopped the preview of ${title ? `“${title}” (run ${oldest.runId})` : `run ${oldest.runId}`}, the oldest idle one, to stay within ${limit} at once`;
  }

  private async launch(l: Live, folder: string, command: NonNullable<ReturnType<typeof previewCommandOf>['command']>): Promise<boolean> {
    const log = (text: string) => this.d.log(l.runId, text);
    const r = await launch(l.runId, folder, command, {
      log, setupDone: (f) => this.d.stream.current.get(l.runId)?.setupDone[f],
      setupRan: (f, lockfile, exitCode) => this.record(() => decideSetupRan({ runId: l.runId, folder: f, lockfile, exitCode })),
      stateChanged: (s) => (l.state = s),
    }, l.abort.signal, l.box);
    if (!r.ok) {
      void l.box?.close();
      if (this.live.get(l.runId) === l) this.live.delete(l.runId);
      if (!l.abort.signal.aborted) { log(`preview failed: ${r.detail}`); this.record((s) => decidePreviewStopped(s, l.runId, 'failed', r.detail)); }
      return false;
    }
    l.port = r.port;
    l.socket = r.socket;
    l.leader = r.process.leader;
    this.record((s) => decidePreviewStarted(s, { runId: l.runId, port: r.port, pid: l.leader!.pid, startTime: l.leader!.startTime, folder, byStep: l.byStep }));
    void r.process.exit.then((end) => this.exited(l, end.code));
    if (l.abort.signal.aborted) { void this.stop(l.runId, 'stopped'); return false; }
    const up = await untilAnswers({ port: r.port, socket: r.socket }, r.process.exit, l.abort.signal);
    if (up && this.live.get(l.runId) === l) { l.state = 'running'; l.lastRequest = this.d.clock.now().getTime(); void this.watchIdle(l); log(`preview: answering on port ${r.port}`); }
    return up;
  }

  private exited(l: Live, code: number | null): void {
    if (this.live.get(l.runId) !== l || l.abort.signal.aborted) return;
    this.live.delete(l.runId);
    void l.box?.close();
    this.d.log(l.runId, `preview: the command exited with ${code ?? 'a signal'}`);
    this.record((s) => decidePreviewStopped(s, l.runId, 'exited', `exit ${code ?? 'by signal'}`));
  }

  private async watchIdle(l: Live): Promise<void> {
    while (!l.abort.signal.aborted) {
      const idleMs = this.d.limits().idleMinutes * 60_000;
      const due = l.lastRequest + idleMs;
      if (this.d.clock.now().getTime() >= due) { void this.stop(l.runId, 'idle', `${this.d.limits().idleMinutes} min without a request`); return; }
      await this.d.clock.sleepUntil(new Date(due), l.abort.signal);
    }
  }

  async stop(runId: string, reason: PreviewStopReason, detail: string | null = null): Promise<Outcome<PreviewView>> {
    const l = this.live.get(runId);
    if (l) {
      this.live.delete(runId);
      l.abort.abort();
      if (l.leader) await endGroup(l.leader, 2000);
      await l.box?.close();
      this.d.log(runId, `preview stopped: ${reason}${detail ? ` (${detail})` : ''}`);
      this.record((s) => decidePreviewStopped(s, runId, reason, detail));
    }
    return this.view(runId);
  }
}

/** the worktree of the project's primary folder, else the run's first */
const folderOf = (run: RunState, project: ProjectView): string =>
  (run.checkouts!.find((c) => c.folder === project.primaryFolder) ?? run.checkouts![0]!).directory;
