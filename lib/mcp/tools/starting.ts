import { map } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { defineTool, type Tool } from '../tool.js';
import { StartRunArgs } from '../args/acting.js';

export const startRun: Tool = defineTool({
  name: 'start_run',
  group: 'starting',
  description: "Start a run of a workflow in a project. It queues like any run and starts when a slot is free. Answers the run id and the address of the run's page.",
  args: StartRunArgs,
  notes: {
    project: 'Project id.',
    goal: "The run's goal.",
    workflow: "Workflow name (default: the project's default workflow).",
    inputs: 'Inputs of the workflow, as strings.',
    title: 'One line, up to 80 characters (default: generated).',
    harness: "Harness for every step (default: each step's workflow choice).",
    model: 'Model for the harness.',
    reason: 'Why the run is started.',
  },
  call: (a, { api, actor }) =>
    pipe(
      api.startRun(a, actor),
      map(({ runId }) => ({ run: runId, url: api.runUrl(runId) })),
    ),
});
