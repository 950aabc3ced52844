import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { Journal } from '../../journal/journal.js';
import { PROJECT_EVENT_CODECS, type ProjectEvent } from '../../journal/project-events.js';
import { SETTINGS_EVENT_CODECS, type SettingsEvent } from '../../journal/settings-events.js';
import { openStore } from '../../journal/store.js';
import { evolveProjects, primaryFolderPath, type Projects } from '../../projections/projects.js';
import { evolveSettings } from '../../projections/settings.js';
import { Engine } from '../engine/engine.js';
import { ProjectSpend } from '../usage/project-spend.js';
import { localDay } from '../../domain/supervisor.js';
import { LiveTurns } from '../engine/live-turns.js';
import { RunToolsBackend } from '../service/run-tools.js';
import { createRunWorktrees, removeRunWorktrees } from '../git/worktrees.js';
import { createForkWorktrees } from '../git/fork-worktrees.js';
import { keepWork, restoreWork } from '../git/keep-work.js';
import { publishCheckouts } from '../git/run-clones.js';
import { ForkLinks } from '../read-models/fork-links.js';
import { deleteSnapshotRefs, takeSnapshot } from '../git/snapshot.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import { createAdapters } from '../harness/registry.js';
import { recheckHarnesses } from '../service/start-readiness.js';
import { sandboxChoice } from '../service/sandbox.js';
import { sandboxProbe } from '../sandbox/probe.js';
import { windowsPort } from './harness-windows.js';
import { openHarnessWindows } from '../state/harness-windows.js';
import { openWorkers } from '../state/workers.js';
import { openPlacement } from '../state/placement.js';
import { RunMachinesView } from '../read-models/run-machines.js';
import { RunDetails } from '../read-models/run-detail.js';
import { newId } from '../ids.js';
import { packageRoot } from '../package-root.js';
import { ensurePrivateDir, svcHome } from '../paths.js';
import { DEFAULT_SETTINGS, type Settings } from '../../domain/settings.js';
import { SingleStream } from '../state/event-stream.js';
import { LogStore } from '../state/log-store.js';
import { openRuns } from '../state/run-stream.js';
import { realClock, type Clock } from '../clock.js';
import type { TriggerPort } from '../triggers/port.js';
import { Triggers } from '../triggers/triggers.js';
import { createCatalog, type Catalog } from '../workflows/catalog.js';
import { renderPrompt } from '../workflows/template.js';
import type { HarnessName } from '../../domain/workflow.js';
import type { ProjectView } from '../../domain/runs.js';
import { runUrlOf, type ServiceCore, type Workflows } from '../service/core.js';
import { stepSettingsOf } from '../read-models/run-detail.js';
import { pullRequestTextOf } from '../service/ship-pr.js';
import { deliverRun } from '../engine/deliver-run.js';
import { prepareRun } from '../service/prepare-run.js';
import { recoverMerges } from '../service/merge-local.js';
import { conflict } from '../../commands/refusal.js';
import { Service } from './service.js';
import { Supervisors } from '../state/supervisors.js';
import { chatStream } from '../supervisors/chat.js';
import { recoverApprovals } from '../supervisors/approvals.js';
import { quoted } from '../../domain/quoted.js';

// The composition root: opens the store, folds the journals, builds the real parts and starts the
// engine. Tests open the same service; the only choice made by configuration is the harness set
// (SVC_HARNESS_MODULE names a module whose createAdapters() replaces the real CLIs).

export interface OpenOptions {
  readonly home: string;
  readonly baseUrl?: string;
  /** do not start the engine (CLI commands that only record, like `svc project add`) */
  readonly engine?: boolean;
  /** the clock of the trigger sources and of the engine's waits and quota windows (tests move it by hand); the real one by default */
  readonly clock?: Clock;
}

const ref = (p: ProjectView) => ({ primaryFolderPath: primaryFolderPath(p), defaultWorkflow: p.defaultWorkflow });

const workflowsFrom = (catalog: Catalog): Workflows => ({
  load(project, name) {
    const r = catalog.load(ref(project), name);
    if (!r) return left(`unknown workflow ${JSON.stringify(quoted(name))}`);
    if (isLeft(r)) return left(`workflow ${quoted(name)} does not load: ${r.left.errors.slice(0, 3).map((e) => `${e.node ? `${e.node}: ` : ''}${e.message}`).join('; ')}`);
    return right(r.right);
  },
  persona: (project, name) => catalog.persona(ref(project), name),
});

/** where the CLIs' versions are kept between starts (lib/harness/version-cache.ts); SVC_CLI_VERSION_CACHE moves it */
export const versionCacheFile = (home: string): string => process.env['SVC_CLI_VERSION_CACHE'] || join(home, 'cache', 'cli-versions.json');

// the adapters, or the stand-in SVC_HARNESS_MODULE names (tests); `svc doctor` checks with the same
export const loadHarnesses = async (home: string = svcHome()): Promise<Record<HarnessName, HarnessAdapter>> => {
  const module = process.env['SVC_HARNESS_MODULE'];
  if (!module) return createAdapters({ versionCache: versionCacheFile(home) });
  const m = (await import(pathToFileURL(module).href)) as { createAdapters(): Record<HarnessName, HarnessAdapter> };
  return m.createAdapters();
};

// a test fixture that may end the process at named points of a fork, a follow-up start, a restart
// or a local merge (spec/fixtures/fork-probe):
// configured only by SVC_FORK_PROBE_MODULE, so production has no such points at all
const loadProbe = async (): Promise<((point: string) => void) | undefined> => {
  const module = process.env['SVC_FORK_PROBE_MODULE'];
  if (!module) return undefined;
  return ((await import(pathToFileURL(module).href)) as { probe(point: string): void }).probe;
};

const version = (): string => (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

// The engine is held here, by the root that starts and stops it, not by the facade or its core:
// they see only what they need of it (core.turns).
const parts = new WeakMap<Service, { readonly live: LiveTurns; engine: Engine | null }>();

const triggerPort = (core: ServiceCore): TriggerPort => ({
  journal: core.journal,
  prepareRun: (input, by, trigger) => {
    const p = prepareRun(core, input, by, trigger.runId, { startedBy: trigger.startedBy });
    if (isLeft(p)) return p;
    const planned = core.runs.plan(p.right.runId, () => right([...p.right.events]), 0);
    // a run decided always has events: RunCreated at least
    return isLeft(planned) || planned.right === null ? left(conflict(`run ${p.right.runId} decided no events`)) : right(planned.right);
  },
  run: (runId) => core.runs.get(runId),
  projects: () => core.projects.current,
  loadWorkflow: (project, name) => core.workflows.load(project, name),
  settings: () => core.settings.current,
  newId: core.newId,
});

export const openService = async (o: OpenOptions): Promise<Service> => {
  ensurePrivateDir(o.home);
  const store = openStore(join(o.home, 'db'));
  const journal = new Journal(store);
  // the first to hear of an append: every reader after it (push frames, waiters) builds views anew
  const details = new RunDetails(() => core, journal);
  const runs = openRuns(journal, store);
  runs.load();
  const runTools = new RunToolsBackend(runs, journal, newId, () => new Date());
  const settings = new SingleStream<Settings, SettingsEvent>(journal, 'settings', SETTINGS_EVENT_CODECS, DEFAULT_SETTINGS, evolveSettings);
  const catalog = createCatalog({ home: o.home, store, defaultHarness: () => settings.current.defaultHarness ?? undefined });
  const projects = new SingleStream<Projects, ProjectEvent>(journal, 'projects', PROJECT_EVENT_CODECS, new Map(), evolveProjects);
  const supervisors = new Supervisors({ journal, home: o.home, runs, projects: () => projects.current, settings: () => settings.current, now: () => new Date(), newId });
  // the feature switched on before a crash that came before the global supervisor was made
  if (settings.current.supervisors.enabled) supervisors.ensureGlobal({ via: 'cli', sender: 'svc start' });
  const live = new LiveTurns();
  const clock = o.clock ?? realClock;
  const spend = new ProjectSpend(runs.all(), (runId) => runs.get(runId)?.projectId);
  spend.follow(journal);
  const probe = await loadProbe();
  await sandboxProbe(); // once per process: starts, the New run form and each step read the answer
  const core: ServiceCore = {
    home: o.home, version: version(), store, journal, runs, logs: new LogStore(store),
    projects, supervisors, spend,
    settings, workflows: workflowsFrom(catalog), harnesses: await loadHarnesses(o.home), availability: new Map(), runTools,
    turns: live, baseUrl: o.baseUrl ?? '', now: () => new Date(), newId,
    harnessWindows: openHarnessWindows(journal), workers: openWorkers(journal), placement: openPlacement(journal), machines: new RunMachinesView(journal), clock,
    forks: new ForkLinks(runs, journal), ...(probe ? { probe } : {}),
    details,
  };
  catalog.onChange(() => core.details.factsChanged());
  const service = new Service(core, catalog, new Triggers(triggerPort(core), clock));
  parts.set(service, { live, engine: null });
  // /api/events?supervisor=<id> follows the supervisor's chat stream
  service.events.chats = (id) => (supervisors.get(id) ? chatStream(id) : undefined);
  recoverApprovals(service);
  // a local merge a crash interrupted: recorded as what it did (merged, or nothing changed)
  void recoverMerges(core);
  if (o.engine !== false) startEngine(service);
  return service;
};

/** Starts running runs; a server starts it once it knows its own URL (the run tool server's address). */
export const startEngine = (service: Service): void => {
  const { core, catalog } = service;
  const held = parts.get(service)!;
  if (held.engine) return;
  const engine = new Engine({
    journal: core.journal, runs: core.runs, logs: core.logs,
    project: (id) => core.projects.current.get(id),
    settings: () => core.settings.current,
    harness: (name) => core.harnesses[name],
    recheckHarness: (name) => void recheckHarnesses(core, [name]),
    remote: (run, harness) => service.workers.remote(run, harness),
    takeUp: (run, harness, stepId) => service.workers.takeUp(run, harness, stepId),
    stepSettings: (run, node) => stepSettingsOf(core, run, node),
    persona: (run, name) => { const p = core.projects.current.get(run.projectId); return p ? catalog.persona(ref(p), name) : undefined; },
    renderPrompt: (template, vars) => renderPrompt(template, vars as Parameters<typeof renderPrompt>[1]),
    worktrees: {
      create: (runId, folders) => createRunWorktrees(core.home, runId, folders),
      remove: (runId, checkouts) => removeRunWorktrees(core.home, runId, checkouts),
      keep: keepWork,
      restore: (runId, removed, kept) => restoreWork(core.home, runId, removed, kept, core.probe),
      createFork: (runId, folders, snapshots) => createForkWorktrees(core.home, runId, folders, snapshots, core.probe),
    },
    snapshots: {
      take: takeSnapshot,
      drop: async (runId, repos) => { for (const repo of repos) await deleteSnapshotRefs(repo, runId); },
      publish: publishCheckouts,
    },
    ...(core.probe ? { probe: core.probe } : {}),
    deliver: deliverRun(() => core.settings.current.codeHost, (s) => pullRequestTextOf(core, s, runUrlOf(core, s.runId))),
    sandbox: (run, tool) => sandboxChoice(core, run, tool),
    preview: { start: (runId) => service.previews.startForStep(runId), url: (runId) => service.previews.url(runId) },
    runTools: (runId, stepId) => { const t = core.runTools.issue(runId, stepId); return { url: `${core.baseUrl}/run-tools/${runId}/mcp`, token: t.token, revoke: t.revoke }; },
    newId, now: () => core.clock.now(),
    sleepUntil: (when, signal) => core.clock.sleepUntil(when, signal),
    windows: windowsPort(core),
    spentToday: (projectId) => core.spend.spent(projectId, localDay(new Date())),
  }, held.live);
  held.engine = engine;
  void refreshAvailability(core);
  service.releases.start();
  engine.start();
  service.triggers.start();
  service.supervisorLoop.start();
  service.notify.notifier.start();
  void service.previews.start();
  service.workers.start();
};

/** Asks each harness whether it is ready; ChangeHarness reads the answers. */
export const refreshAvailability = async (core: ServiceCore): Promise<void> => {
  await Promise.all(Object.entries(core.harnesses).map(async ([name, a]) => {
    core.availability.set(name as HarnessName, await a.check().catch((e: unknown) => ({ _tag: 'NotInstalled' as const, detail: String(e) })));
  }));
};

export const closeService = async (s: Service): Promise<void> => {
  await s.supervisorLoop.stop();
  await s.notify.notifier.stop();
  await s.previews.close();
  await s.triggers.stop();
  await parts.get(s)?.engine?.stop();
  await s.workers.close();
  s.releases.close();
  s.events.close();
  await s.catalog.close();
  await s.core.logs.flushed();
  await s.core.store.close();
};
