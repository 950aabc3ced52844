import type { RunDecideState } from './run-decide-state.js';

// The queue: runs waiting for a slot, lowest priority first (creation time; a move to the front
// takes minus the time of the move), ties by id, which is time-ordered too.
export const queueOrder = <S extends RunDecideState>(runs: Iterable<S>): S[] =>
  [...runs].filter((r) => r.lifecycle === 'queued').sort((a, b) => a.queuePriority - b.queuePriority || (a.runId < b.runId ? -1 : 1));

export const activeCount = (runs: Iterable<RunDecideState>): number => {
  let n = 0;
  for (const r of runs) if (r.lifecycle === 'active') n++;
  return n;
};
