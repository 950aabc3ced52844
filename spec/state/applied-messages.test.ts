// The record of worker messages the hub applied (lib/state/applied-messages.ts), in a real LMDB
// store: a message is applied once, and the record is pruned of ids applied before a time whose
// step has ended; ids of a step still in flight, ids applied since, and ids with no step (a
// message that came without its Nats-Msg-Id) stay. A pruned id is forgotten.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../journal/store.js';
import { AppliedMessages } from '../../lib/state/applied-messages.js';
import { appliedIdOf, outMessageId, stepOfAppliedId } from '../../lib/workers/remote-messages.js';

const open = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-applied-'));
  const store = openStore(dir);
  t.teardown(async () => (await store.close(), rmSync(dir, { recursive: true, force: true })));
  return new AppliedMessages(store);
};

const id = (step: string, n: number) => appliedIdOf('w1', outMessageId(step, 1, n));

test('an applied id names its step; one without a message id names none', (t) => {
  t.is(stepOfAppliedId(id('s1abc-t2', 3)), 's1abc-t2');
  t.is(stepOfAppliedId(appliedIdOf('w1', 'seq-17')), undefined);
});

test('pruning drops the ids of ended steps applied before the time, and nothing else', (t) => {
  const applied = open(t);
  let runs = 0;
  const apply = () => void runs++;
  t.true(applied.once(id('old', 1), '2026-01-01T00:00:00.000Z', apply));
  t.true(applied.once(id('old', 2), '2026-01-01T00:00:01.000Z', apply));
  t.true(applied.once(id('live', 1), '2026-01-01T00:00:00.000Z', apply));
  t.true(applied.once(id('recent', 1), '2026-03-01T00:00:00.000Z', apply));
  t.true(applied.once(appliedIdOf('w1', 'seq-9'), '2026-01-01T00:00:00.000Z', apply));
  t.false(applied.once(id('old', 1), '2026-01-02T00:00:00.000Z', apply), 'a redelivery is skipped');
  t.is(runs, 5);

  const ended = new Set(['old', 'recent']);
  const done = (x: string) => ended.has(stepOfAppliedId(x) ?? '');
  t.is(applied.prune('2026-02-01T00:00:00.000Z', done), 2);
  t.is(applied.prune('2026-02-01T00:00:00.000Z', done), 0, 'a second prune finds nothing');
  // what stayed is still skipped; what went is forgotten
  t.false(applied.once(id('live', 1), 'x', apply));
  t.false(applied.once(id('recent', 1), 'x', apply));
  t.false(applied.once(appliedIdOf('w1', 'seq-9'), 'x', apply));
  t.true(applied.once(id('old', 2), '2026-03-02T00:00:00.000Z', apply));
  t.is(runs, 6);
});
