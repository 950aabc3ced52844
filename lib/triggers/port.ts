import type { Either } from 'fp-ts/lib/Either.js';
import type { Outcome } from '../../commands/refusal.js';
import type { Journal } from '../../journal/journal.js';
import type { Projects } from '../../projections/projects.js';
import type { RunState } from '../../projections/run-state.js';
import type { Actor, ProjectView, StartedBy, StartRunInput } from '../../domain/runs.js';
import type { Settings } from '../../domain/settings.js';
import type { Workflow } from '../../domain/workflow.js';
import type { Planned } from '../state/event-stream.js';

// What the trigger rules need from the rest of the service, and no more: the composition root
// (lib/root/open.ts) builds it, so lib/triggers never imports the facade that serves it.

export interface TriggerPort {
  /** the rules' own streams live in it */
  readonly journal: Journal;
  /** decides a run through the same path as POST /api/runs, under the run id the rule records;
   * written in one transaction with the rule's event (lib/triggers/fire.ts) */
  prepareRun(input: StartRunInput, by: Actor, trigger: { runId: string; startedBy: StartedBy }): Outcome<Planned>;
  run(runId: string): RunState | undefined;
  projects(): Projects;
  /** the workflow a rule would start: Left says why not (unknown, or does not load) */
  loadWorkflow(project: ProjectView, name: string): Either<string, Workflow>;
  settings(): Settings;
  newId(prefix: string): string;
}
