import test from 'ava';
import { decideMoveRun } from '../../commands/move-run.js';
import { evolveRunPins, NO_PINS } from '../../projections/run-pins.js';

// "Move to…" as a decide (docs/workers.md): a run not ended may be moved to this machine or to a
// worker the hub knows and has not revoked; the pin is folded with who moved it and when.

const by = { kind: 'person' as const, name: 'ann' };
const base = { runId: 'r1', ended: false, by };

test('a run is moved to an active worker, then back here; the pin holds the last move with who and when', (t) => {
  const first = decideMoveRun(NO_PINS, { ...base, to: 'w1', worker: 'active' });
  t.deepEqual(first, { _tag: 'Right', right: [{ type: 'RunMovedTo', data: { runId: 'r1', to: 'w1', by } }] });
  const pins = evolveRunPins(NO_PINS, { type: 'RunMovedTo', data: { runId: 'r1', to: 'w1', by }, at: '2026-11-27T10:00:00.000Z' });
  t.deepEqual(pins.get('r1'), { to: 'w1', by, at: '2026-11-27T10:00:00.000Z' });
  const back = decideMoveRun(pins, { ...base, to: 'here' });
  t.deepEqual(back, { _tag: 'Right', right: [{ type: 'RunMovedTo', data: { runId: 'r1', to: 'here', by } }] });
});

test('refused: an ended run, an unknown worker, a revoked worker', (t) => {
  const ended = decideMoveRun(NO_PINS, { ...base, ended: true, to: 'w1', worker: 'active' });
  t.like(ended, { _tag: 'Left', left: { _tag: 'Ended' } });
  t.like(decideMoveRun(NO_PINS, { ...base, to: 'wnope', worker: 'unknown' }), { _tag: 'Left', left: { _tag: 'Invalid', detail: 'to must be "here" or an active worker\'s id: "wnope" is not a worker of this hub (`svc worker list`)' } });
  t.like(decideMoveRun(NO_PINS, { ...base, to: 'w1', worker: 'revoked' }), { _tag: 'Left', left: { _tag: 'Invalid', detail: 'to must be "here" or an active worker\'s id: "w1" is revoked' } });
});
