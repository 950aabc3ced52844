import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Attempt, Continues, RunEvent } from '../journal/run-events.js';
import { invalid, type Refusal } from './refusal.js';
import type { Actor, StartedBy, StartRunInput } from '../domain/runs.js';
import type { Workflow } from '../domain/workflow.js';
import { quoted } from '../domain/quoted.js';

// Creating a run: the inputs are checked against the workflow it will run, then RunCreated (and
// RunQueued unless start is false) is all there is to it; the engine takes it from there.

export const titleFrom = (goal: string): string => {
  const line = goal.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? 'Run';
  const chars = [...line]; // by characters, so a title never ends in half of one
  return chars.length <= 80 ? line : chars.slice(0, 79).join('') + '…';
};

const checkInputs = (wf: Workflow, inputs: Readonly<Record<string, string>>): Refusal | null => {
  const undeclared = Object.keys(inputs).filter((k) => !wf.inputs.includes(k));
  if (undeclared.length === 0) return null;
  return invalid(`input ${undeclared.slice(0, 5).map((k) => JSON.stringify(quoted(k))).join(', ')} is not declared by workflow ${wf.name} (it declares: ${wf.inputs.join(', ') || 'no inputs'})`);
};

// the start's own budget, else the workflow's default (its graph attribute budgetUsd)
const budgetOf = (input: StartRunInput, wf: Workflow): { budgetUsd?: number } => {
  const budget = input.budgetUsd ?? wf.budgetUsd;
  return budget === undefined ? {} : { budgetUsd: budget };
};

export const decideCreateRun = (c: { runId: string; projectId: string; workflow: Workflow; input: StartRunInput; by: Actor; restartOf?: string; startedBy?: StartedBy; continues?: Continues; attempt?: Attempt }): Either<Refusal, RunEvent[]> => {
  const inputs = c.input.inputs ?? {};
  const bad = checkInputs(c.workflow, inputs);
  if (bad) return left(bad);
  if (c.input.goal.trim() === '') return left(invalid('goal must not be blank'));
  const created: RunEvent = {
    type: 'RunCreated',
    data: {
      runId: c.runId, projectId: c.projectId, title: c.input.title ?? titleFrom(c.input.goal), goal: c.input.goal, workflow: c.workflow,
      inputs: { ...c.workflow.defaults, ...inputs }, by: c.by,
      ...(c.input.harness ? { harness: c.input.harness } : {}), ...(c.input.model ? { model: c.input.model } : {}),
      ...(c.input.reason ? { reason: c.input.reason } : {}), ...(c.restartOf ? { restartOf: c.restartOf } : {}), ...(c.startedBy ? { startedBy: c.startedBy } : {}),
      ...(c.continues ? { continues: c.continues } : {}), ...(c.attempt ? { attempt: c.attempt } : {}), ...budgetOf(c.input, c.workflow),
    },
  };
  const queued: RunEvent = { type: 'RunQueued', data: { by: c.by } };
  return right(c.input.start === false ? [created] : [created, queued]);
};
