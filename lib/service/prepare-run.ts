import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideCreateRun } from '../../commands/create-run.js';
import { invalid, notFound, type Outcome } from '../../commands/refusal.js';
import type { Attempt, RunEvent } from '../../journal/run-events.js';
import { findProject } from '../../projections/projects.js';
import type { Actor, StartedBy, StartRunInput } from '../../domain/runs.js';
import type { ServiceCore } from './core.js';
import { startRefusal } from './start-readiness.js';

// Starting a run in two halves: everything that can refuse (project, workflow, inputs, then the
// readiness of the harness) and then the append. Attempts decide every sibling before any is
// recorded, so a group is made whole or not at all.

/** a run decided but not yet recorded */
export interface PreparedRun { readonly runId: string; readonly events: readonly RunEvent[] }

export interface RunOrigin { readonly restartOf?: string; readonly startedBy?: StartedBy; readonly attempt?: Attempt }

export const prepareRun = (core: ServiceCore, input: StartRunInput, by: Actor, runId: string, origin: RunOrigin = {}): Outcome<PreparedRun> => {
  const project = findProject(core.projects.current, input.project);
  if (!project) return left(notFound('project', input.project));
  const wf = core.workflows.load(project, input.workflow ?? project.defaultWorkflow);
  if (isLeft(wf)) return left(invalid(wf.left));
  // a request that is wrong is refused as such first; whether the CLIs are ready comes after
  const d = decideCreateRun({ runId, projectId: project.id, workflow: wf.right, input, by, ...origin });
  if (isLeft(d)) return d;
  const notReady = startRefusal(core, project, wf.right, input);
  return notReady ? left(notReady) : right({ runId, events: d.right });
};

/** a run id is made once: a rule's recorded run that exists already is not made again */
export const appendPrepared = (core: ServiceCore, p: PreparedRun): void => {
  core.runs.transact(p.runId, () => right([...p.events]), { at: core.now().toISOString(), onStale: 'refuse', expected: 0 });
};
