import test from 'ava';
import { RUN_UPCASTS } from '../../lib/state/run-stream.js';

// Snapshot 13 → 14: a paused run learns who paused it (pausedBy), which "needs you" reads. A
// version-13 snapshot kept no `by`: svc's own pauses name their cause first in their reason.

test('a run paused by svc (budget, harness problem, cycle limit) is upcast as paused by the engine; other states are kept as they were', (t) => {
  const up = RUN_UPCASTS[13]!;
  for (const reason of ['budget: spent $2.00 of $1.00 budget', 'harness problem: claude is not installed', 'the pull request loop used its 1 cycle(s) and pull request #4 has checks failing (test) on abc1234; fix it by hand and Resume, or raise cycles']) {
    t.like(up({ paused: true, pauseReason: reason }), { pausedBy: 'engine', pauseReason: reason });
  }
  t.deepEqual(up({ paused: true, pauseReason: 'lunch' }), { paused: true, pauseReason: 'lunch' });
  t.deepEqual(up({ paused: true }), { paused: true });
  t.deepEqual(up({ paused: false, pauseReason: 'budget: old' }), { paused: false, pauseReason: 'budget: old' });
});
