import test from 'ava';
import { appliedBy, decideClaim, decideDispatch, decideLapse, decideLoseStep, decideRecall, decideWorkerMessage } from '../../commands/dispatch.js';
import type { DispatchEvent } from '../../journal/dispatch-events.js';
import { evolveDispatches, latestTurn, NO_DISPATCHES, type Dispatches } from '../../projections/dispatch.js';

// The fence a dispatched step is held by (docs/workers.md): JetStream takes a partitioned
// worker's late ack, so the journal decides whose messages count. A partition, told as decides:
// worker wa claims (delivery 1), is cut off, its lease lapses, wb claims (delivery 2); wa comes
// back with its result and its renewals, and they are refused and recorded; wb's result is the
// one applied.

const run = (s: Dispatches, d: { _tag: string; right?: readonly DispatchEvent[] }): [Dispatches, readonly DispatchEvent[]] => {
  if (d._tag !== 'Right' || !d.right) throw new Error(JSON.stringify(d));
  return [d.right.reduce(evolveDispatches, s), d.right];
};

test('a partitioned worker\'s late result and renewal are discarded; the current claim\'s result is applied once', (t) => {
  let s = NO_DISPATCHES;
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1' }));
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  // wa's events are taken while its claim is the current one
  t.deepEqual(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'event' }))[1], []);
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wb', token: 2 }));
  let es: readonly DispatchEvent[];
  [s, es] = run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'renewal' }));
  t.like(es[0], { type: 'StepMessageDiscarded', data: { workerId: 'wa', token: 1, kind: 'renewal', reason: 'claim 1 of wa is not the current one (2 of wb)' } });
  [s, es] = run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result' }));
  t.like(es[0], { type: 'StepMessageDiscarded', data: { kind: 'result' } });
  // an older delivery number claimed again (a late claim) is refused too
  [s, es] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  t.like(es[0], { type: 'StepMessageDiscarded', data: { kind: 'claim' } });
  [s, es] = run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wb', token: 2, kind: 'result' }));
  t.deepEqual(es, [{ type: 'StepResultApplied', data: { stepId: 's1', workerId: 'wb', token: 2 } }]);
  // once applied: the same result again is a redelivery (nothing), anyone else's is discarded, and it cannot be lost
  t.deepEqual(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wb', token: 2, kind: 'result' }))[1], []);
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result' }))[1][0], { type: 'StepMessageDiscarded', data: { reason: 'the step has ended (applied)' } });
  t.deepEqual(run(s, decideLoseStep(s, { stepId: 's1', reason: 'worker lost' }))[1], []);
  // the applied claim's later words (its parts again, a renewal asking whether its result is in) are its own; no one else's are
  t.true(appliedBy(s.get('s1'), { stepId: 's1', workerId: 'wb', token: 2 }));
  t.false(appliedBy(s.get('s1'), { stepId: 's1', workerId: 'wa', token: 1 }));
  t.false(appliedBy(s.get('s1'), { stepId: 's1', workerId: 'wb', token: 3 }));
  t.false(appliedBy(s.get('s2'), { stepId: 's2', workerId: 'wb', token: 2 }));
});

test('the same worker claiming with the same delivery number is a repeat; a worker speaking for a step never dispatched is refused', (t) => {
  let s = NO_DISPATCHES;
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1' }));
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  t.deepEqual(run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }))[1], []);
  // another worker claiming with the same number speaks for no claim the server made
  t.like(run(s, decideClaim(s, { stepId: 's1', workerId: 'wb', token: 1 }))[1][0], { type: 'StepMessageDiscarded' });
  t.like(decideWorkerMessage(s, { stepId: 's9', workerId: 'wa', token: 1, kind: 'result' }), { _tag: 'Left', left: { _tag: 'NotFound' } });
  // lost once: the step ends with the reason, and a late result is discarded
  [s] = run(s, decideLoseStep(s, { stepId: 's1', reason: 'worker lost' }));
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result' }))[1][0], { type: 'StepMessageDiscarded', data: { reason: 'the step has ended (lost)' } });
});

test('a lease the hub saw lapse: the claim is no longer current, its renewal and result are discarded, and the next delivery\'s claim is taken', (t) => {
  let s = NO_DISPATCHES;
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1' }));
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  let es: readonly DispatchEvent[];
  [s, es] = run(s, decideLapse(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  t.deepEqual(es, [{ type: 'StepLeaseLapsed', data: { stepId: 's1', workerId: 'wa', token: 1 } }]);
  // the worker comes back: its renewal and its late result are refused, with the reason
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'renewal' }))[1][0], { type: 'StepMessageDiscarded', data: { kind: 'renewal', reason: 'the lease of claim 1 of wa lapsed' } });
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result' }))[1][0], { type: 'StepMessageDiscarded', data: { kind: 'result' } });
  t.like(run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }))[1][0], { type: 'StepMessageDiscarded', data: { kind: 'claim' } });
  // the same worker (pinned) takes the next delivery: that claim is the current one
  [s, es] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 2 }));
  t.like(es[0], { type: 'StepClaimed', data: { token: 2 } });
  t.deepEqual(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 2, kind: 'result' }))[1], [{ type: 'StepResultApplied', data: { stepId: 's1', workerId: 'wa', token: 2 } }]);
  // a lapse told late (claim 1 after claim 2 was taken) changes nothing
  t.deepEqual(run(s, decideLapse(s, { stepId: 's1', workerId: 'wa', token: 1 }))[1], []);
});

test('a recalled step (paused or aborted) takes nothing more from its worker; a revoked worker and a worker speaking for another\'s claim are refused', (t) => {
  let s = NO_DISPATCHES;
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1' }));
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  // another worker sending a result for wa's claim (its subject names it, the server checked that)
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wb', token: 1, kind: 'result' }))[1][0], { type: 'StepMessageDiscarded', data: { workerId: 'wb', reason: 'claim 1 of wb is not the current one (1 of wa)' } });
  // wa revoked: its result for its own current claim is refused and recorded
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result', revoked: true }))[1][0], { type: 'StepMessageDiscarded', data: { workerId: 'wa', kind: 'result', reason: 'worker wa is revoked' } });
  t.like(run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 2, revoked: true }))[1][0], { type: 'StepMessageDiscarded', data: { kind: 'claim', reason: 'worker wa is revoked' } });
  let es: readonly DispatchEvent[];
  [s, es] = run(s, decideRecall(s, { stepId: 's1', reason: 'paused' }));
  t.deepEqual(es, [{ type: 'StepRecalled', data: { stepId: 's1', reason: 'paused' } }]);
  t.like(run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'renewal' }))[1][0], { type: 'StepMessageDiscarded', data: { reason: 'the step has ended (recalled)' } });
  t.like(run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 2 }))[1][0], { type: 'StepMessageDiscarded', data: { kind: 'claim', reason: 'the step has ended (recalled)' } });
});

test('a result is recorded with what the step\'s end needs; a step\'s latest turn is its last `-t<n>` dispatch', (t) => {
  let s = NO_DISPATCHES;
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1' }));
  [s] = run(s, decideClaim(s, { stepId: 's1', workerId: 'wa', token: 1 }));
  const result = { outcome: 'success' as const, summary: 'done', sessionId: 'x1', costUsd: 0.5 };
  [s] = run(s, decideWorkerMessage(s, { stepId: 's1', workerId: 'wa', token: 1, kind: 'result', result }));
  t.like(latestTurn(s, 's1'), { turn: 1, d: { stepId: 's1', ended: 'applied', result } });
  [s] = run(s, decideDispatch(s, { runId: 'r1', stepId: 's1-t2' }));
  t.like(latestTurn(s, 's1'), { turn: 2, d: { stepId: 's1-t2' } });
  t.is(latestTurn(s, 's1')?.d.ended, undefined, 'the second turn runs');
  t.is(latestTurn(s, 's9'), undefined);
});
