import test from 'ava';
import * as t from 'io-ts';
import { join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import { openStore } from '../../journal/store.js';
import { EventStream, type StreamKind } from '../../lib/state/event-stream.js';
import { tempDir } from '../helpers/env.js';

// A snapshot of an older format is carried forward by the upcasts from its version, not thrown
// away: a restart then folds no history. Without an upcast for its version it is refolded from the
// journal, as before. Shown on a real LMDB store with a small stream kind of its own.

type Added = { readonly type: 'Added'; readonly data: { readonly n: number } };
interface V1 { readonly total: number; readonly seq: number }
interface V2 extends V1 { readonly count: number; readonly upcast?: true }

const kind = (version: number, folds: { n: number }, upcasts?: Record<number, (s: unknown) => unknown>): StreamKind<V2, Added> => ({
  prefix: 'counter:',
  codecs: { Added: t.type({ n: t.number }) },
  evolve: (s, e) => {
    folds.n += 1;
    return { total: (s?.total ?? 0) + e.data.n, count: (s?.count ?? 0) + 1, seq: e.seq };
  },
  unreadable: (s) => s,
  snapshot: { db: 'counter-snapshots', version, seqOf: (s) => s.seq, ...(upcasts ? { upcasts } : {}) },
});

const at = () => new Date().toISOString();

const written = async () => {
  const path = join(tempDir(), 'db');
  const store = openStore(path);
  const folds = { n: 0 };
  const stream = new EventStream(new Journal(store), kind(1, folds), store);
  for (const n of [1, 2, 3, 4]) stream.transact('a', () => ({ _tag: 'Right', right: [{ type: 'Added', data: { n } }] }) as const, { at: at(), onStale: 'retry' });
  await store.close();
  return path;
};

test('a snapshot one version old is upcast on load, and no event is folded again', async (t) => {
  const path = await written();
  const store = openStore(path);
  t.teardown(() => store.close());
  const folds = { n: 0 };
  const stream = new EventStream(new Journal(store), kind(2, folds, { 1: (s) => ({ ...(s as V1), count: 4, upcast: true }) }), store);
  stream.load();
  t.deepEqual(stream.get('a'), { total: 10, count: 4, seq: 4, upcast: true });
  t.is(folds.n, 0, 'nothing refolded');
});

test('a snapshot with no upcast for its version is refolded from the journal', async (t) => {
  const path = await written();
  const store = openStore(path);
  t.teardown(() => store.close());
  const folds = { n: 0 };
  const stream = new EventStream(new Journal(store), kind(3, folds, { 2: (s) => s }), store);
  stream.load();
  t.deepEqual(stream.get('a'), { total: 10, count: 4, seq: 4 });
  t.is(folds.n, 4, 'every event folded again');
});
