import * as t from 'io-ts';
import { fields } from './object.js';
import { workerIdProblem } from './workers.js';

// "Move to…" (POST /api/runs/{id}/move): the machine for the run's next agent steps, 'here' or a
// worker's id as GET /api/workers lists it. Whether that worker exists is the decide's.

export const MoveInput = fields({ to: t.string }, {}, (b) => (b.to === 'here' ? null : workerIdProblem(b.to) === null ? null : `to: "here" or a worker id; ${workerIdProblem(b.to)}`));
