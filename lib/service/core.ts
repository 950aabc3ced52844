import type { Either } from 'fp-ts/lib/Either.js';
import type { Journal } from '../../journal/journal.js';
import type { ProjectEvent } from '../../journal/project-events.js';
import type { SettingsEvent } from '../../journal/settings-events.js';
import type { Store } from '../../journal/store.js';
import type { Projects } from '../../projections/projects.js';
import type { RunState } from '../../projections/run-state.js';
import { currentNodeOf } from '../../projections/run-decide-state.js';
import { runDetail, runSummary, type StepFacts } from '../read-models/run-views.js';
import type { Supervisors } from '../state/supervisors.js';
import type { Clock } from '../clock.js';
import type { HarnessWindowStream } from '../state/harness-windows.js';
import type { WorkerStream } from '../state/workers.js';
import type { PlacementStream } from '../state/placement.js';
import type { RunMachinesView } from '../read-models/run-machines.js';
import type { RunToolsBackend } from './run-tools.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import type { Availability } from '../../domain/harness.js';
import type { ProjectView, StepSettings } from '../../domain/runs.js';
import type { RunDetail, RunSummary } from '../../projections/run-shapes.js';
import type { Settings } from '../../domain/settings.js';
import type { SingleStream } from '../state/event-stream.js';
import type { LogStore } from '../state/log-store.js';
import type { RunStreams } from '../state/run-stream.js';
import type { ForkLinks } from '../read-models/fork-links.js';
import type { RunDetails } from '../read-models/run-detail.js';
import { resolveStepSettings, toolClasses } from '../workflows/step-settings.js';
import type { ProjectSpend } from '../usage/project-spend.js';
import { queueHold } from '../../commands/engine-steps.js';
import { localDay } from '../../domain/supervisor.js';
import type { HarnessName, Persona, StepNode, Workflow } from '../../domain/workflow.js';

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
  /** each run's view, built once per append (lib/read-models/run-detail.ts) */
  readonly details: RunDetails;
  /** a test fixture's crash point inside forking (SVC_FORK_PROBE_MODULE); absent in production */
  readonly probe?: (point: string) => void;
  baseUrl: string;
  /** each harness's quota window (lib/state/harness-windows.ts) */
  readonly harnessWindows: HarnessWindowStream;
  /** the machines that run steps for this hub (docs/workers.md) */
  readonly workers: WorkerStream;
  /** runs a person moved to a machine ("Move to…", lib/service/move-run.ts) */
  readonly placement: PlacementStream;
  /** where each dispatched step ran, folded from the 'dispatch' journal (lib/read-models/run-machines.ts) */
  readonly machines: RunMachinesView;
  /** the service's clock: real, or one a test moves by hand (OpenOptions.clock) */
  readonly clock: Clock;
  now(): Date;
  newId(prefix: string): string;
}

/** the run's page in the app: the link back a pull request, a notification and a merge commit carry */
export const runUrlOf = (core: Pick<ServiceCore, 'baseUrl'>, runId: string): string => `${core.baseUrl}/runs/${encodeURIComponent(runId)}`;
export const availabilityText = (a: Availability | undefined): string | null =>
  !a ? 'not checked yet' : a._tag === 'Ready' ? null : a.detail;
