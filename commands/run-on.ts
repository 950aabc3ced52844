import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { ProjectEvent } from '../journal/project-events.js';
import type { Projects } from '../projections/projects.js';
import { quoted } from '../domain/quoted.js';
import { invalid, notFound, type Refusal } from './refusal.js';

// A project's "Run on" (docs/workers.md): 'here' runs its agent steps on this machine, as always;
// a worker's id pins them to that worker. Only a worker that has a token and is not revoked can be
// chosen: whether it is online is presence, and a step waits in the queue until it is.

/** what the caller read of the worker named (absent for 'here') */
export type RunOnWorker = 'active' | 'revoked' | 'unknown';

export const decideChooseRunOn = (ps: Projects, c: { projectId: string; runOn: string; worker?: RunOnWorker }): Either<Refusal, ProjectEvent[]> => {
  const p = ps.get(c.projectId);
  if (!p) return left(notFound('project', c.projectId));
  if (c.runOn !== 'here' && c.worker !== 'active') {
    const why = c.worker === 'revoked' ? 'is revoked' : 'is not a worker of this hub (`svc worker list`)';
    return left(invalid(`runOn must be "here" or an active worker's id: ${JSON.stringify(quoted(c.runOn))} ${why}`));
  }
  return right((p.runOn ?? 'here') === c.runOn ? [] : [{ type: 'RunOnChosen', data: { projectId: p.id, runOn: c.runOn } }]);
};
