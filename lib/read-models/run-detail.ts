import type { ProjectView, StepSettings } from '../../domain/runs.js';
import type { Settings } from '../../domain/settings.js';
import type { Persona, StepNode } from '../../domain/workflow.js';
import { localDay } from '../../domain/supervisor.js';
import { queueHold } from '../../commands/engine-steps.js';
import type { Projects } from '../../projections/projects.js';
import { currentNodeOf } from '../../projections/run-decide-state.js';
import type { RunState } from '../../projections/run-state.js';
import type { LinkedRun, RunDetail, RunSummary } from '../../projections/run-shapes.js';
import type { RunStreams } from '../state/run-stream.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { resolveStepSettings, toolClasses } from '../workflows/step-settings.js';
import { runDetail, runSummary, type StepFacts } from './run-views.js';
import { machineViewOf, type MachineSource } from './machine-view.js';

// A run as every door reads it (get_run, wait_for_run, the push frames, the control reply): its
// state joined with the few facts from outside the run, read from what the service holds now.

/** what a run's view reads besides the run: the service core is one */
export interface RunViewSource extends MachineSource {
  readonly runs: RunStreams;
  readonly projects: { readonly current: Projects };
  readonly settings: { readonly current: Settings };
  readonly workflows: { persona(project: ProjectView, name: string): Persona | undefined };
  readonly supervisors: { ownerOf(s: RunState): string | null };
  readonly spend: { spent(projectId: string, day: string): number };
  readonly forks: { of(runId: string): readonly string[] };
  readonly details: RunDetails;
  now(): Date;
}

export const projectOf = (core: RunViewSource, s: RunState): ProjectView | undefined => core.projects.current.get(s.projectId);

export const stepSettingsOf = (core: RunViewSource, s: RunState, node: StepNode): StepSettings => {
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

const stepFacts = (core: RunViewSource, s: RunState): StepFacts => {
  const node = currentNodeOf(s);
  if (!node || node.kind !== 'agent') return { settings: null, toolClasses: [] };
  const settings = stepSettingsOf(core, s, node);
  return { settings, toolClasses: toolClasses(settings.tools.value) };
};

/** why the queue holds a queued run now (its project's daily budget), or undefined */
export const queueHoldOf = (core: RunViewSource, s: RunState): string | undefined => {
  const project = projectOf(core, s);
  if (s.lifecycle !== 'queued' || project?.dailyBudgetUsd === undefined) return undefined;
  return queueHold({ held: 0, cap: 1, project: { dailyBudgetUsd: project.dailyBudgetUsd, spentTodayUsd: core.spend.spent(s.projectId, localDay(core.now())) } }) ?? undefined;
};

// The runs a detail names, each with its title: a page shows "Forked from <title>", not an id, and
// need not read the whole board to know it.
const linkedOf = (core: RunViewSource, s: RunState, forks: readonly string[]): Record<string, LinkedRun> => {
  const ids = [s.continues?.runId, ...(s.continuedBy ?? []), s.forkedFrom?.run, ...forks, s.views.board.restartOf, s.restartedAs];
  const linked: Record<string, LinkedRun> = {};
  for (const id of ids) {
    const r = id ? core.runs.get(id) : undefined;
    if (!id || !r) continue;
    linked[id] = { title: r.title, ...(r.forkedFrom ? { forkStep: r.forkedFrom.step } : {}) };
  }
  return linked;
};

/** the run as get_run gives it, built now from its state and the facts outside it */
export const buildDetail = (core: RunViewSource, s: RunState): RunDetail => {
  const forks = core.forks.of(s.runId);
  const linked = linkedOf(core, s, forks);
  const machine = machineViewOf(core, s);
  return {
    ...runDetail(s, projectOf(core, s), stepFacts(core, s), core.supervisors.ownerOf(s), queueHoldOf(core, s)),
    ...(forks.length ? { forks } : {}), ...(Object.keys(linked).length ? { linked } : {}), ...(machine ? { machine } : {}),
  };
};

/** the run as get_run gives it: built at most once per append (RunDetails) */
export const detailOf = (core: RunViewSource, s: RunState): RunDetail => core.details.of(s);

interface Kept { readonly seq: number; readonly facts: number; readonly day: string; readonly detail: RunDetail }

// Streams whose events a run's view reads beside the run's own: the run's project, the settings,
// the supervisors (ownership), and, from other runs' journals, a new run (a fork or follow-up names
// its source) and recorded usage (a project's spend today holds its queued runs).
const touchesViews = (stream: string, events: readonly Stored[]): boolean =>
  !stream.startsWith('run:') || events.some((e) => e.type === 'RunCreated' || e.type === 'UsageRecorded');

/**
 * The run view, kept per run: built once for a run's position and the facts outside it, then
 * handed to every reader (the push frames of every watcher, get_run, wait_for_run, the control
 * reply) until the run or those facts move. It must hear of an append before any reader does
 * (lib/root/open.ts makes it first), so no reader keeps a view built on facts already past.
 */
export class RunDetails {
  private readonly kept = new Map<string, Kept>();
  private facts = 0;
  /** how many views were built (spec/read-models/run-detail.test.ts counts them) */
  built = 0;

  constructor(private readonly source: () => RunViewSource, journal: Journal) {
    journal.subscribe((stream, events) => { if (touchesViews(stream, events)) this.factsChanged(); });
  }

  /** something outside the journal that a view reads changed (a workflow or persona file) */
  factsChanged(): void {
    this.facts += 1;
  }

  of(s: RunState): RunDetail {
    const source = this.source();
    const day = localDay(source.now());
    const k = this.kept.get(s.runId);
    if (k && k.seq === s.seq && k.facts === this.facts && k.day === day) return k.detail;
    const detail = buildDetail(source, s);
    this.built += 1;
    if (s.seq >= (k?.seq ?? 0)) this.kept.set(s.runId, { seq: s.seq, facts: this.facts, day, detail });
    return detail;
  }
}
export const summaryOf = (core: RunViewSource, s: RunState): RunSummary => runSummary(s, projectOf(core, s));
