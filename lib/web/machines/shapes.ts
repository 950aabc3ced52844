// GET /api/workers as the Machines page reads it (lib/read-models/machines-list.ts, docs/workers.md).

export interface MachineRun { readonly runId: string; readonly title: string; readonly step: string }

export interface WorkerRow {
  readonly workerId: string;
  readonly name: string;
  readonly state: 'online' | 'lost' | 'never-joined' | 'revoked';
  readonly slots: number | null;
  readonly slotsInUse: number | null;
  readonly harnesses: readonly string[];
  readonly sandbox: boolean | null;
  readonly host: string | null;
  readonly runs: readonly MachineRun[];
}

export interface HereRow {
  readonly name: string;
  readonly host: string;
  readonly slots: number;
  readonly slotsInUse: number;
  readonly harnesses: readonly string[];
  readonly sandbox: boolean | null;
  readonly runs: readonly MachineRun[];
}

export interface Machines { readonly workers: readonly WorkerRow[]; readonly hub: string | null; readonly here: HereRow }

/** POST /api/workers/tokens: the token is in this answer only */
export interface MadeToken { readonly worker: WorkerRow; readonly token: string; readonly hub: string | null; readonly hubProblem?: string }
