import test from 'ava';
import type { RunEvent } from '../../journal/run-events.js';
import { localDay } from '../../domain/supervisor.js';
import { ProjectSpend } from '../../lib/usage/project-spend.js';
import { applyStored } from '../../projections/run-state.js';
import { at, created, given } from '../helpers/given.js';

// A project's spend per local day, in memory: started from the runs' folded usage (what their
// snapshots hold, no journal read) and added to as each UsageRecorded is appended.

const turn = (usd: number | null): RunEvent => ({
  type: 'UsageRecorded',
  data: { stepId: 's1', node: 'work', harness: 'claude', tokens: null, cost: usd === null ? { _tag: 'Unknown', why: 'x' } : { _tag: 'Reported', usd } },
});
const runOf = (runId: string, projectId: string, ...events: RunEvent[]) =>
  given({ ...created, data: { ...(created.data as object), runId, projectId } } as RunEvent, ...events);

test('started from the runs\' usage per local day; unknown costs add nothing; other days and projects apart', (t) => {
  const yesterday = new Date(Date.parse(at) - 86_400_000).toISOString();
  const old = applyStored(runOf('r3', 'p'), { ...turn(7), seq: 2, at: yesterday });
  const spend = new ProjectSpend([runOf('r1', 'p', turn(1.25), turn(null)), runOf('r2', 'p', turn(0.5)), runOf('r4', 'q', turn(9)), old], () => undefined);
  const today = localDay(new Date(at));
  t.is(spend.spent('p', today), 1.75);
  t.is(spend.spent('q', today), 9);
  t.is(spend.spent('p', localDay(new Date(yesterday))), 7);
  t.is(spend.spent('nobody', today), 0);
});
