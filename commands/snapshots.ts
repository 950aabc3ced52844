import type { RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { accept, nothing, type Decision } from './guards.js';

// The engine records the snapshots it took of a step end (lib/engine/snapshots.ts): one
// SnapshotTaken or SnapshotFailed per folder, in one append. Only while that step end is due: a
// second record of the same step end (a restart that took them again) is nothing.

export interface RecordSnapshots {
  /** the seq of the step end the snapshots are of */
  readonly at: number;
  /** SnapshotTaken and SnapshotFailed events, one per folder */
  readonly records: readonly RunEvent[];
}

export const decideRecordSnapshots = (s: RunDecideState, c: RecordSnapshots): Decision =>
  s.snapshotDue?.at === c.at && c.records.length > 0 ? accept(...c.records) : nothing();
