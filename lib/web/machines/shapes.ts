// GET /api/workers as the Machines page reads it (lib/read-models/machines-list.ts, docs/workers.md).

// the rows are the server's own types (type-only: nothing of the server reaches the bundle)
import type { WorkerRow as PoolRow } from '../../root/workers-pool.js';
import type { HereRow, MachineRun } from '../../read-models/machines-list.js';

export type { HereRow, MachineRun };

/** a worker as the pool lists it, with the runs whose step it holds now */
export interface WorkerRow extends PoolRow {
  readonly runs: readonly MachineRun[];
}

/** `hubProblem`: the hub's connection to NATS is down, and the states are as presence was last read */
export interface Machines { readonly workers: readonly WorkerRow[]; readonly hub: string | null; readonly hubProblem?: string; readonly hubDownSince?: string; readonly here: HereRow }

/** POST /api/workers/tokens: the token is in this answer only */
export interface MadeToken { readonly worker: WorkerRow; readonly token: string; readonly hub: string | null; readonly hubProblem?: string }
