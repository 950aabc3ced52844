import { isLeft, right } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../journal/run-events.js';
import { join } from 'node:path';
import { openService } from '../lib/root/open.js';
import type { Service } from '../lib/root/service.js';
import { gitRepo, writeLinearWorkflow } from './common.js';

// A real service (engine off) on a temp home with one project on a real git repository, the way
// spec/helpers/server.ts sets one up, and runs created through the real startRun.

export const BY = { kind: 'person', name: 'bench' } as const;

export const prepareHome = (home: string, tmp: string): { repo: string } => {
  writeLinearWorkflow(home);
  return { repo: gitRepo(join(tmp, 'repo')) };
};

export const addBenchProject = async (service: Service, repo: string): Promise<string> => {
  const p = await service.addProject('bench', [{ path: repo }]);
  if (isLeft(p)) throw new Error(JSON.stringify(p.left));
  return p.right.id;
};

export const benchService = async (home: string, tmp: string): Promise<{ service: Service; projectId: string }> => {
  const { repo } = prepareHome(home, tmp);
  const service = await openService({ home, engine: false });
  return { service, projectId: await addBenchProject(service, repo) };
};

/**
 * `count` runs through startRun with start: false. Setup only: runs are grouped `group` to a
 * durable commit (each append's own transactionSync nests inside the outer one), so building the
 * data set is not a benchmark of the disk's fsync.
 */
export const createRuns = (service: Service, projectId: string, count: number, group = 250): string[] => {
  const ids: string[] = [];
  for (let i = 0; i < count; i += group) {
    service.core.store.root.transactionSync(() => {
      for (let j = i; j < Math.min(count, i + group); j++) {
        const r = service.startRun({ project: projectId, goal: `bench run ${j}\nsome goal text`, workflow: 'linear', start: false }, BY);
        if (isLeft(r)) throw new Error(JSON.stringify(r.left));
        ids.push(r.right.runId);
      }
    });
  }
  return ids;
};

/** Appends events to a run as they are (the benches write history, they decide nothing); true when appended. */
export const appendRun = (service: Service, runId: string, events: readonly RunEvent[], expected?: number): boolean => {
  const r = service.core.runs.transact(runId, () => right(events), { at: new Date().toISOString(), onStale: 'refuse', ...(expected !== undefined ? { expected } : {}) });
  return !isLeft(r) && r.right._tag === 'Appended';
};
