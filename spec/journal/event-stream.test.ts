import test from 'ava';
import { isLeft, isRight, left, right } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import type { RunEvent } from '../../journal/run-events.js';
import { openStore, type Store } from '../../journal/store.js';
import { EventStream, SingleStream, type StreamKind } from '../../lib/state/event-stream.js';
import { openRuns, RUN_KIND } from '../../lib/state/run-stream.js';
import { tempDir } from '../helpers/env.js';
import { at, created, queued, started } from '../helpers/given.js';

// The one store every stream kind goes through, on a real LMDB: decide on the current state,
// append at its seq, fold what was decided; a stale append answered as the caller chose.

type Added = { readonly type: 'Added'; readonly data: { readonly n: number } };
interface Tally { readonly total: number; readonly seqs: readonly number[]; readonly unreadable: number }

const TALLY: StreamKind<Tally, Added> = {
  prefix: 'tally:',
  codecs: { Added: t.type({ n: t.number }) },
  evolve: (s, e) => ({ total: (s?.total ?? 0) + e.data.n, seqs: [...(s?.seqs ?? []), e.seq], unreadable: s?.unreadable ?? 0 }),
  unreadable: (s) => ({ total: s?.total ?? 0, seqs: s?.seqs ?? [], unreadable: (s?.unreadable ?? 0) + 1 }),
};

const add = (n: number): Added => ({ type: 'Added', data: { n } });
const later = '2026-11-20T10:00:05.000Z';

const opened = (): { journal: Journal; store: Store; path: string } => {
  const path = join(tempDir('svc-streams-'), 'db');
  const store = openStore(path);
  return { journal: new Journal(store), store, path };
};

test('transact decides on the current state, appends at its seq and folds the events it decided, before listeners hear', async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  const seen: (Tally | undefined)[] = [];
  journal.subscribe(() => seen.push(tallies.get('a')));
  const first = tallies.transact('a', (s) => right(s ? [] : [add(2), add(3)]), { at, onStale: 'refuse' });
  t.deepEqual(first, right({ _tag: 'Appended', state: { total: 5, seqs: [1, 2], unreadable: 0 }, events: [{ ...add(2), seq: 1, at }, { ...add(3), seq: 2, at }] }));
  const again = tallies.transact('a', (s) => right(s ? [] : [add(2)]), { at, onStale: 'refuse' });
  t.deepEqual(again, right({ _tag: 'Unchanged', state: { total: 5, seqs: [1, 2], unreadable: 0 } }));
  t.deepEqual(seen, [{ total: 5, seqs: [1, 2], unreadable: 0 }]);
  t.is(journal.head('tally:a'), 2);
  await store.close();
});

test('its own events are folded as decided, not decoded again: only a later load reads them through the codecs', async (t) => {
  const { journal, store } = opened();
  const strict: StreamKind<Tally, Added> = { ...TALLY, codecs: {} };
  const tallies = new EventStream(journal, strict);
  const r = tallies.transact('a', () => right([add(4)]), { at, onStale: 'refuse' });
  t.true(isRight(r) && r.right._tag === 'Appended' && r.right.state?.total === 4);
  const loaded = new EventStream(journal, strict);
  loaded.load();
  t.deepEqual(loaded.get('a'), { total: 0, seqs: [], unreadable: 1 });
  await store.close();
});

test('a refusal comes back as it is and appends nothing', async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  t.deepEqual(tallies.transact('a', () => left('no'), { at, onStale: 'retry' }), left('no'));
  t.is(journal.head('tally:a'), 0);
  t.is(tallies.get('a'), undefined);
  await store.close();
});

test("onStale 'refuse': a stream another writer moved is Stale, with the moved state, and decide is asked once", async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  tallies.transact('a', () => right([add(1)]), { at, onStale: 'refuse' });
  journal.append('tally:a', 1, [add(10)], later);
  let asked = 0;
  const r = tallies.transact('a', () => { asked++; return right([add(100)]); }, { at, onStale: 'refuse' });
  t.deepEqual(r, right({ _tag: 'Stale', state: { total: 11, seqs: [1, 2], unreadable: 0 } }));
  t.is(asked, 1);
  t.is(journal.head('tally:a'), 2);
  await store.close();
});

test("onStale 'retry': the moved stream is read and decided again, then appended", async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  tallies.transact('a', () => right([add(1)]), { at, onStale: 'refuse' });
  journal.append('tally:a', 1, [add(10)], later);
  const reuseDecision: number[] = [];
  const r = tallies.transact('a', (s) => { reuseDecision.push(s?.total ?? 0); return right([add(-(s?.total ?? 0))]); }, { at, onStale: 'retry' });
  t.deepEqual(reuseDecision, [1, 11]);
  t.true(isRight(r) && r.right._tag === 'Appended' && r.right.state?.total === 0);
  t.deepEqual(journal.read('tally:a').map((e) => e.data), [{ n: 1 }, { n: 10 }, { n: -11 }]);
  await store.close();
});

test("onStale 'retry' is bounded: a writer that always loses is told Stale", async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  let asked = 0;
  const r = tallies.transact('a', () => {
    asked++;
    journal.append('tally:a', journal.head('tally:a'), [add(1)], later); // another writer wins each time
    return right([add(100)]);
  }, { at, onStale: 'retry' });
  t.true(isRight(r) && r.right._tag === 'Stale' && r.right.state?.total === asked);
  t.is(asked, 5);
  t.false(journal.read('tally:a').some((e) => (e.data as { n: number }).n === 100));
  await store.close();
});

test('an expected seq is the position the caller decided on: a moved stream is Stale even when retrying', async (t) => {
  const { journal, store } = opened();
  const tallies = new EventStream(journal, TALLY);
  tallies.transact('a', () => right([add(1), add(1)]), { at, onStale: 'refuse' });
  const behind = tallies.transact('a', () => right([add(5)]), { at, onStale: 'retry', expected: 1 });
  t.true(isRight(behind) && behind.right._tag === 'Stale' && behind.right.state?.total === 2);
  t.is(journal.head('tally:a'), 2);
  const r = tallies.transact('a', () => right([add(5)]), { at, onStale: 'retry', expected: 2 });
  t.true(isRight(r) && r.right._tag === 'Appended');
  await store.close();
});

test('a failure inside the append leaves the journal and the state as they were', async (t) => {
  const { journal, store } = opened();
  const fragile: StreamKind<Tally, Added> = { ...TALLY, evolve: (s, e) => { if (e.data.n < 0) throw new Error('cannot fold'); return TALLY.evolve(s, e, ''); } };
  const tallies = new EventStream(journal, fragile);
  tallies.transact('a', () => right([add(1)]), { at, onStale: 'refuse' });
  t.throws(() => tallies.transact('a', () => right([add(2), add(-1)]), { at, onStale: 'refuse' }), { message: 'cannot fold' });
  t.deepEqual(tallies.get('a'), { total: 1, seqs: [1], unreadable: 0 });
  t.is(journal.head('tally:a'), 1);
  t.throws(() => tallies.transact('b', () => right([add(-1)]), { at, onStale: 'refuse' }));
  t.is(tallies.get('b'), undefined);
  t.is(tallies.size, 1);
  await store.close();
});

test('load folds every stream of its kind and no other; an event that does not decode goes to the kind', async (t) => {
  const { journal, store } = opened();
  journal.append('tally:a', 0, [add(1), { type: 'Added', data: { n: 'two' } }, add(3)], at);
  journal.append('tally:b', 0, [{ type: 'Removed', data: {} }], at);
  journal.append('tallies', 0, [add(50)], at);
  const tallies = new EventStream(journal, TALLY);
  tallies.load();
  t.deepEqual(tallies.get('a'), { total: 4, seqs: [1, 3], unreadable: 1 });
  t.deepEqual(tallies.get('b'), { total: 0, seqs: [], unreadable: 1 });
  t.is(tallies.size, 2);
  // the stream's seq is its head, even past an unreadable event: the next append lands after it
  t.true(isRight(tallies.transact('b', () => right([add(7)]), { at, onStale: 'refuse' })));
  t.deepEqual(journal.read('tally:b').map((e) => e.seq), [1, 2]);
  await store.close();
});

const runEvents: RunEvent[] = [created, queued, started];

test('runs are snapshotted with each append, and a restart reads the snapshot instead of the history', async (t) => {
  const { journal, store, path } = opened();
  const runs = openRuns(journal, store);
  runs.transact('r1', () => right(runEvents), { at, onStale: 'refuse' });
  const state = runs.get('r1')!;
  t.is(state.seq, 3);
  t.deepEqual(store.db('run-snapshots').get('run:r1'), { v: RUN_KIND.snapshot!.version, state });
  await store.close();
  const again = openStore(path);
  const reopened = new Journal(again);
  // a history the snapshot covers is not read again: spoil it, and the run still loads whole
  again.db('events').putSync(['run:r1', 2], { type: 'RunQueued', data: { by: 7 }, at });
  const loaded = openRuns(reopened, again);
  loaded.load();
  t.deepEqual(loaded.get('r1'), state);
  await again.close();
});

test('a snapshot of another version is passed over: the run is folded from its history, which marks what it cannot read', async (t) => {
  const { journal, store } = opened();
  const runs = openRuns(journal, store);
  runs.transact('r1', () => right(runEvents), { at, onStale: 'refuse' });
  store.db('run-snapshots').putSync('run:r1', { v: -1, state: { nonsense: true } });
  store.db('events').putSync(['run:r1', 2], { type: 'RunQueued', data: { by: 7 }, at });
  const loaded = openRuns(journal, store);
  loaded.load();
  const s = loaded.get('r1')!;
  t.is(s.seq, 3);
  t.regex(s.unreadable ?? '', /event 2 \(RunQueued\) has bad/);
  await store.close();
});

test('a single stream starts from its initial state and is changed through the same transact', async (t) => {
  const { journal, store } = opened();
  const one = new SingleStream<number, Added>(journal, 'counter', TALLY.codecs, 10, (s, e) => s + e.data.n);
  t.is(one.current, 10);
  t.is(one.stream, 'counter');
  const r = one.transact((s) => (s > 100 ? left('too big') : right([add(5)])), { at, onStale: 'refuse' });
  t.true(isRight(r) && r.right._tag === 'Appended' && r.right.state === 15);
  t.true(isLeft(new SingleStream<number, Added>(journal, 'counter', TALLY.codecs, 200, (s, e) => s + e.data.n).transact((s) => (s > 100 ? left('too big') : right([])), { at, onStale: 'refuse' })));
  t.deepEqual(one.events().map((e) => e.data), [{ n: 5 }]);
  await store.close();
});
