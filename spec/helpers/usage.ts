import { right } from 'fp-ts/lib/Either.js';
import type { RunEvent, RunEventOf } from '../../journal/run-events.js';
import type { TestServer } from './server.js';

// Usage as the journal holds it: UsageRecorded appended to a real run through the run streams
// (the one way a run's journal is written), at a chosen time, so that day buckets are known.

export type Turn = Omit<RunEventOf<'UsageRecorded'>['data'], 'stepId' | 'node'> & { readonly at: string; readonly stepId?: string };

export const recordUsage = (s: Pick<TestServer, 'service'>, runId: string, turn: Turn): void => {
  const { at, stepId, ...data } = turn;
  const e: RunEvent = { type: 'UsageRecorded', data: { stepId: stepId ?? 's1', node: 'work', ...data } };
  const r = s.service.core.runs.transact(runId, () => right([e]), { at, onStale: 'retry' });
  if (r._tag !== 'Right' || r.right._tag !== 'Appended') throw new Error(`usage not recorded on ${runId}`);
};

export const tokens = (input: number, cachedInput: number, output: number) => ({ input, cachedInput, output });
