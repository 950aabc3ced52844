import test from 'ava';
import { join } from 'node:path';
import { Journal, type Stored } from '../../journal/journal.js';
import { openStore, type Store } from '../../journal/store.js';
import { tempDir } from '../helpers/env.js';

// The journal itself, on a real LMDB in a temp folder: the expected-seq check, reads, the stream
// listing, listeners, and that an append is all of its events or none.

const at = '2026-11-20T10:00:00.000Z';
const ev = (n: number) => ({ type: 'Said', data: { n } });

const opened = (): { journal: Journal; store: Store; path: string } => {
  const path = join(tempDir('svc-journal-'), 'db');
  const store = openStore(path);
  return { journal: new Journal(store), store, path };
};

test('an append at the expected seq numbers its events on from the head, all with its time', async (t) => {
  const { journal, store } = opened();
  t.is(journal.head('s'), 0);
  const first = journal.append('s', 0, [ev(1), ev(2)], at);
  t.deepEqual(first, { _tag: 'Appended', events: [{ seq: 1, at, ...ev(1) }, { seq: 2, at, ...ev(2) }] });
  const second = journal.append('s', 2, [ev(3)], '2026-11-20T10:00:01.000Z');
  t.deepEqual(second, { _tag: 'Appended', events: [{ seq: 3, at: '2026-11-20T10:00:01.000Z', ...ev(3) }] });
  t.is(journal.head('s'), 3);
  await store.close();
});

test('an append at any other seq is Stale with the head, and writes nothing', async (t) => {
  const { journal, store } = opened();
  journal.append('s', 0, [ev(1)], at);
  t.deepEqual(journal.append('s', 0, [ev(2)], at), { _tag: 'Stale', head: 1 });
  t.deepEqual(journal.append('s', 5, [ev(2)], at), { _tag: 'Stale', head: 1 });
  t.deepEqual(journal.append('new', 1, [ev(2)], at), { _tag: 'Stale', head: 0 });
  t.deepEqual(journal.read('s'), [{ seq: 1, at, ...ev(1) }]);
  t.deepEqual(journal.streams(''), ['s']);
  await store.close();
});

test('an empty append is nothing: no seq, no listener told', async (t) => {
  const { journal, store } = opened();
  const told: string[] = [];
  journal.subscribe((s) => told.push(s));
  t.deepEqual(journal.append('s', 0, [], at), { _tag: 'Appended', events: [] });
  t.is(journal.head('s'), 0);
  t.deepEqual(told, []);
  await store.close();
});

test('read takes an inclusive range; page takes the events before a seq, oldest first', async (t) => {
  const { journal, store } = opened();
  journal.append('s', 0, [1, 2, 3, 4, 5, 6].map(ev), at);
  journal.append('other', 0, [ev(99)], at);
  const ns = (es: readonly Stored[]) => es.map((e) => (e.data as { n: number }).n);
  t.deepEqual(ns(journal.read('s')), [1, 2, 3, 4, 5, 6]);
  t.deepEqual(ns(journal.read('s', 2, 4)), [2, 3, 4]);
  t.deepEqual(ns(journal.read('s', 6)), [6]);
  t.deepEqual(ns(journal.read('s', 7)), []);
  t.deepEqual(ns(journal.page('s', undefined, 2)), [5, 6]);
  t.deepEqual(ns(journal.page('s', 5, 3)), [2, 3, 4]);
  t.deepEqual(ns(journal.page('s', 2, 10)), [1]);
  t.deepEqual(ns(journal.page('s', 1, 10)), []);
  t.deepEqual(ns(journal.page('s', 100, 2)), [5, 6]);
  t.deepEqual(journal.read('none'), []);
  await store.close();
});

test('streams lists the names that start with a prefix, and only those', async (t) => {
  const { journal, store } = opened();
  for (const s of ['run:b', 'run:a', 'runs', 'supervisor:x', 'supervisor-chat:x', 'settings']) journal.append(s, 0, [ev(1)], at);
  t.deepEqual(journal.streams('run:'), ['run:a', 'run:b']);
  t.deepEqual(journal.streams('supervisor:'), ['supervisor:x']);
  t.deepEqual(journal.streams('settings'), ['settings']);
  t.deepEqual(journal.streams('trigger:'), []);
  await store.close();
});

test('listeners hear each append once, with all its events, after it is durable; unsubscribed, they hear no more', async (t) => {
  const { journal, store } = opened();
  const heard: [string, number[], number][] = [];
  const stop = journal.subscribe((s, es) => heard.push([s, es.map((e) => e.seq), journal.head(s)]));
  journal.append('a', 0, [ev(1), ev(2)], at);
  journal.append('b', 0, [ev(1)], at);
  journal.append('a', 0, [ev(3)], at); // stale: not heard
  stop();
  journal.append('a', 2, [ev(3)], at);
  t.deepEqual(heard, [['a', [1, 2], 2], ['b', [1], 1]]);
  await store.close();
});

test('a listener that throws neither undoes the append nor keeps it from the other listeners', async (t) => {
  const { journal, store } = opened();
  const heard: number[] = [];
  const error = console.error;
  console.error = () => undefined;
  try {
    journal.subscribe(() => { throw new Error('listener fault'); });
    journal.subscribe((_, es) => heard.push(...es.map((e) => e.seq)));
    t.is(journal.append('s', 0, [ev(1)], at)._tag, 'Appended');
  } finally {
    console.error = error;
  }
  t.deepEqual(heard, [1]);
  t.is(journal.head('s'), 1);
  await store.close();
});

test('an append is all its events or none: a failure inside its transaction leaves the stream as it was', async (t) => {
  const { journal, store } = opened();
  journal.append('s', 0, [ev(1)], at);
  const told: string[] = [];
  journal.subscribe((s) => told.push(s));
  t.throws(() => journal.append('s', 1, [ev(2), ev(3), ev(4)], at, () => { throw new Error('snapshot failed'); }), { message: 'snapshot failed' });
  t.is(journal.head('s'), 1);
  t.deepEqual(journal.read('s').map((e) => e.seq), [1]);
  t.deepEqual(told, []);
  t.is(journal.append('s', 1, [ev(2)], at)._tag, 'Appended');
  await store.close();
});

test('what runs inside the append sees its events numbered, and its writes land with them', async (t) => {
  const { journal, store } = opened();
  const side = store.db<number[]>('side');
  journal.append('s', 0, [ev(1), ev(2)], at, (stored) => side.putSync('s', stored.map((e) => e.seq)));
  t.deepEqual(side.get('s'), [1, 2]);
  await store.close();
});

test('events and heads survive closing and opening the store again', async (t) => {
  const { journal, store, path } = opened();
  journal.append('s', 0, [ev(1), ev(2)], at);
  await store.close();
  const again = openStore(path);
  const reopened = new Journal(again);
  t.is(reopened.head('s'), 2);
  t.deepEqual(reopened.read('s'), [{ seq: 1, at, ...ev(1) }, { seq: 2, at, ...ev(2) }]);
  t.deepEqual(reopened.append('s', 2, [ev(3)], at), { _tag: 'Appended', events: [{ seq: 3, at, ...ev(3) }] });
  await again.close();
});

// Issue 33: what two streams record about each other is one transaction (Journal.appendAll).
test('an append across streams writes every stream or none: one stale stream leaves all as they were', async (t) => {
  const { journal, store } = opened();
  journal.append('a', 0, [ev(1)], at);
  const told: string[] = [];
  journal.subscribe((stream, events) => told.push(`${stream}:${events.map((e) => e.seq).join(',')}`));
  t.deepEqual(journal.appendAll([{ stream: 'b', expected: 0, events: [ev(1)] }, { stream: 'a', expected: 0, events: [ev(2)] }], at), { _tag: 'Stale', stream: 'a', head: 1 });
  t.deepEqual(journal.read('b'), [], 'b was not written: a was stale');
  t.deepEqual(told, []);
  const r = journal.appendAll([{ stream: 'b', expected: 0, events: [ev(1), ev(2)] }, { stream: 'a', expected: 1, events: [ev(3)] }], at);
  t.deepEqual(r, { _tag: 'Appended', events: [[{ seq: 1, at, ...ev(1) }, { seq: 2, at, ...ev(2) }], [{ seq: 2, at, ...ev(3) }]] });
  t.deepEqual([journal.head('a'), journal.head('b')], [2, 2]);
  t.deepEqual(told, ['b:1,2', 'a:2'], 'told once durable, in the order given');
  t.throws(() => journal.appendAll([{ stream: 'a', expected: 2, events: [ev(4)] }, { stream: 'a', expected: 3, events: [ev(5)] }], at), { message: /a stream given twice/ });
  await store.close();
});

test('an append across streams that throws inside its transaction writes none of them', async (t) => {
  const { journal, store } = opened();
  t.throws(() => journal.appendAll([
    { stream: 'x', expected: 0, events: [ev(1)] },
    { stream: 'y', expected: 0, events: [ev(1)], alsoWrite: () => { throw new Error('boom'); } },
  ], at), { message: 'boom' });
  t.deepEqual([journal.head('x'), journal.head('y'), journal.read('x').length], [0, 0, 0]);
  await store.close();
});
