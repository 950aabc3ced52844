import test from 'ava';
import type { RunEvent } from '../../journal/run-events.js';
import { localDay } from '../../projections/usage-days.js';
import { at, running } from '../helpers/given.js';

// A run's usage cells: one per local day, harness and model, however many turns; unknown costs
// counted apart, never as zero; UsageRecorded is quiet (a control taken before it is not stale).

const turn = (data: Partial<Extract<RunEvent, { type: 'UsageRecorded' }>['data']>): RunEvent => ({
  type: 'UsageRecorded',
  data: { stepId: 's1', node: 'work', harness: 'claude', model: 'sonnet', tokens: { input: 10, cachedInput: 2, output: 3 }, cost: { _tag: 'Reported', usd: 0.25 }, ...data },
});

test('turns of one day, harness and model add up in one cell; another harness or model is a cell of its own', (t) => {
  const s = running(
    turn({}), turn({ cost: { _tag: 'Priced', usd: 0.5 } }),
    turn({ harness: 'codex', model: 'gpt-5', tokens: null, cost: { _tag: 'Unknown', why: 'no price' } }),
    { type: 'UsageRecorded', data: { stepId: 's1', node: 'work', harness: 'claude', tokens: { input: 10, cachedInput: 2, output: 3 }, cost: { _tag: 'Reported', usd: 0.25 } } },
  );
  const day = localDay(at);
  t.deepEqual(s.views.usageCells, [
    { day, harness: 'claude', model: 'sonnet', costUsd: 0.75, unknownTurns: 0, turns: 2, tokens: { input: 20, cachedInput: 4, output: 6 } },
    { day, harness: 'codex', model: 'gpt-5', costUsd: 0, unknownTurns: 1, turns: 1, tokens: { input: 0, cachedInput: 0, output: 0 } },
    { day, harness: 'claude', model: '', costUsd: 0.25, unknownTurns: 0, turns: 1, tokens: { input: 10, cachedInput: 2, output: 3 } },
  ]);
});

test('a turn is quiet: it moves seq, not position', (t) => {
  const before = running();
  const after = running(turn({}));
  t.is(after.seq, before.seq + 1);
  t.is(after.position, before.position);
});
