import type { Either } from 'fp-ts/lib/Either.js';
import type { Journal } from '../../journal/journal.js';
import type { ProjectEvent } from '../../journal/project-events.js';
import type { SettingsEvent } from '../../journal/settings-events.js';
import type { Store } from '../../journal/store.js';
import type { Projects } from '../../projections/projects.js';
import type { RunState } from '../../projections/run-state.js';
import { currentNodeOf } from '../../projections/run-state.js';
import { runDetail, runSummary, type StepFacts } from '../../projections/run-views.js';
import type { Supervisors } from '../supervisors/supervisors.js';
import type { Clock } from '../triggers/clock.js';
import type { HarnessWindowStream } from './harness-windows.js';
import type { RunToolsBackend } from '../engine/run-tools-backend.js';
import type { Availability, HarnessAdapter } from '../harness/adapter.js';
import type { ProjectView, RunDetail, RunSummary, StepSettings } from '../service-api.js';
import type { Settings } from '../settings/model.js';
import type { SingleStream } from '../state/event-stream.js';
import type { LogStore } from '../state/log-store.js';
import type { RunStreams } from '../state/run-stream.js';
import type { ForkLinks } from '../read-models/fork-links.js';
import { resolveStepSettings, toolClasses } from '../workflows/step-settings.js';
import type { ProjectSpend } from '../usage/project-spend.js';
import { queueHold } from '../../commands/engine-steps.js';
import { localDay } from '../supervisors/model.js';
import type { HarnessName, Persona, StepNode, Workflow } from '../workflows/model.js';

// Everything the facade's functions share. Built once by open.ts (the composition root).

export interface Workflows {
  /** the workflow to start a run on: Left says why not (unknown, or does not load) */
  load(project: ProjectView, name: string): Either<string, Workflow>;
  persona(project: ProjectView, name: string): Persona | undefined;
}

export interface ServiceCore {
  readonly home: string;
  readonly version: string;
  readonly store: Store;
  readonly journal: Journal;
  readonly runs: RunStreams;
  readonly logs: LogStore;
  readonly projects: SingleStream<Projects, ProjectEvent>;
  readonly settings: SingleStream<Settings, SettingsEvent>;
  readonly workflows: Workflows;
  readonly harnesses: Readonly<Record<HarnessName, HarnessAdapter>>;
  readonly availability: Map<HarnessName, Availability>;
  readonly runTools: RunToolsBackend;
  /** the turns this process has in flight (the engine's): an answer asks whether the asker still waits */
  readonly turns: { isLive(stepId: string): boolean; checkNow(stepId: string): { cycleRunning: boolean; read: Promise<void> } | null };
  /** supervisor records, keys, ownership and the ledger (lib/supervisors) */
  readonly supervisors: Supervisors;
  /** each project's known spend per local day, kept current from UsageRecorded (daily budgets) */
  readonly spend: ProjectSpend;
  /** which runs were forked from which (lib/read-models/fork-links.ts) */
  readonly forks: ForkLinks;
  /** a test fixture's crash point inside forking (SVC_FORK_PROBE_MODULE); absent in production */
  readonly probe?: (point: string) => void;
  baseUrl: string;
  /** each harness's quota window (lib/service/harness-windows.ts) */
  readonly harnessWindows: HarnessWindowStream;
  /** the service's clock: real, or one a test moves by hand (OpenOptions.clock) */
  readonly clock: Clock;
  now(): Date;
  newId(prefix: string): string;
}

/** the run's page in the app: the link back a pull request, a notification and a merge commit carry */
export const runUrlOf = (core: Pick<ServiceCore, 'baseUrl'>, runId: string): string => `${core.baseUrl}/runs/${encodeURIComponent(runId)}`;

export const projectOf = (core: ServiceCore, s: RunState): ProjectView | undefined => core.projects.current.get(s.projectId);

export const stepSettingsOf = (core: ServiceCore, s: RunState, node: StepNode): StepSettings => {
  const project = projectOf(core, s);
  const personaName = node.persona ?? s.workflow.stepDefaults.persona;
  const persona = personaName && project ? core.workflows.persona(project, personaName) : undefined;
  const harness = s.harnessOverride ?? s.harness;
  return resolveStepSettings({
    run: { ...(harness ? { harness } : {}), ...(s.model && !s.harnessOverride ? { model: s.model } : {}) },
    node, ...(persona ? { persona } : {}), workflow: s.workflow.stepDefaults,
    settings: core.settings.current.defaultHarness ? { defaultHarness: core.settings.current.defaultHarness } : {},
  });
};

const stepFacts = (core: ServiceCore, s: RunState): StepFacts => {
  const node = currentNodeOf(s);
  if (!node || node.kind !== 'agent') return { settings: null, toolClasses: [] };
  const settings = stepSettingsOf(core, s, node);
  return { settings, toolClasses: toolClasses(settings.tools.value) };
};

/** why the queue holds a queued run now (its project's daily budget), or undefined */
export const queueHoldOf = (core: ServiceCore, s: RunState): string | undefined => {
  const project = projectOf(core, s);
  if (s.lifecycle !== 'queued' || project?.dailyBudgetUsd === undefined) return undefined;
  return queueHold({ held: 0, cap: 1, project: { dailyBudgetUsd: project.dailyBudgetUsd, spentTodayUsd: core.spend.spent(s.projectId, localDay(core.now())) } }) ?? undefined;
};

export const detailOf = (core: ServiceCore, s: RunState): RunDetail => {
  const forks = core.forks.of(s.runId);
  return { ...runDetail(s, projectOf(core, s), stepFacts(core, s), core.supervisors.ownerOf(s), queueHoldOf(core, s)), ...(forks.length ? { forks } : {}) };
};
export const summaryOf = (core: ServiceCore, s: RunState): RunSummary => runSummary(s, projectOf(core, s));

export const availabilityText = (a: Availability | undefined): string | null =>
  !a ? 'not checked yet' : a._tag === 'Ready' ? null : a.detail;
