import * as t from 'io-ts';

// The worker pool's doors (docs/workers.md): a join token is made for a named machine; a worker
// is named by its id. The name's own rule (letters, digits, spaces, dots, dashes) is the handler's.

export const NewWorkerTokenBody = t.type({ name: t.string });

/** a worker id as svc makes them: `w` and lowercase letters and digits */
export const workerIdProblem = (id: string): string | null =>
  /^w[0-9a-z]{1,64}$/.test(id) ? null : 'a worker id is w followed by lowercase letters and digits, as GET /api/workers lists them';
