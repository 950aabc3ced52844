import type { WorkerEvent } from '../journal/worker-events.js';
import type { HarnessName } from '../domain/workflow.js';

// The workers this hub knows, folded from the 'workers' journal: each one's key, what it last
// announced, whether it is revoked. Whether it is online is not here: that is presence (a KV
// entry with a time to live), read live by the hub.

export interface Announced {
  readonly slots: number;
  readonly harnesses: readonly HarnessName[];
  readonly sandbox: boolean;
  readonly host?: string;
}

export interface WorkerRecord {
  readonly workerId: string;
  readonly name: string;
  readonly publicKey: string;
  readonly announced?: Announced;
  readonly revoked: boolean;
}

export type Workers = ReadonlyMap<string, WorkerRecord>;

export const NO_WORKERS: Workers = new Map();

const put = (s: Workers, w: WorkerRecord): Workers => new Map(s).set(w.workerId, w);

export const evolveWorkers = (s: Workers, e: WorkerEvent): Workers => {
  switch (e.type) {
    case 'WorkerTokenCreated': return put(s, { ...e.data, revoked: false });
    case 'WorkerJoined': {
      const w = s.get(e.data.workerId);
      const { workerId: _id, ...announced } = e.data;
      return w ? put(s, { ...w, announced }) : s;
    }
    case 'WorkerRevoked': {
      const w = s.get(e.data.workerId);
      return w ? put(s, { ...w, revoked: true }) : s;
    }
    case 'WorkerMessageRefused': return s;
  }
};

/** the workers that may connect: every one not revoked */
export const activeWorkers = (s: Workers): readonly WorkerRecord[] => [...s.values()].filter((w) => !w.revoked);
