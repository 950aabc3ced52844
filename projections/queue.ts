import type { RunState } from './run-state.js';

// The queue: runs waiting for a slot, lowest priority first (creation time; a move to the front
// takes minus the time of the move), ties by id, which is time-ordered too.
export const queueOrder = (runs: Iterable<RunState>): RunState[] =>
  [...runs].filter((r) => r.lifecycle === 'queued').sort((a, b) => a.queuePriority - b.queuePriority || (a.runId < b.runId ? -1 : 1));

export const activeCount = (runs: Iterable<RunState>): number => {
  let n = 0;
  for (const r of runs) if (r.lifecycle === 'active') n++;
  return n;
};
