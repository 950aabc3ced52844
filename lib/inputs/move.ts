import * as t from 'io-ts';
import { fields } from './object.js';
import { workerIdProblem } from './workers.js';
import { optionalReason } from './common.js';

// "Move to…" (POST /api/runs/{id}/move): the machine for the run's next agent steps, 'here' or a
// worker's id as GET /api/workers lists it. Whether that worker exists is the decide's. `reason`,
// as every run tool takes one: the move records who moved the run, not why.

export const MoveInput = fields({ to: t.string }, optionalReason, (b) => (b.to === 'here' ? null : workerIdProblem(b.to) === null ? null : `to: "here" or a worker id; ${workerIdProblem(b.to)}`));
