import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import type { RunEvent } from '../../journal/run-events.js';
import { openStore } from '../../journal/store.js';
import { applyStored, createdState, type RunState } from '../../projections/run-state.js';
import { EventStream, type StreamKind } from '../../lib/state/event-stream.js';
import { RUN_KIND, RUN_UPCASTS, runStream } from '../../lib/state/run-stream.js';
import { ROOT } from '../../scripts/import-graph.js';
import { tempDir } from '../helpers/env.js';

// Snapshot 15 → 16: the run's state split into the decide state and its views (projections/
// run-state.ts). The fixture is a run's journal and the version-15 snapshot that the code before the
// split wrote for it, so a store on disk today opens and folds to what its journal says.

type Stored = RunEvent & { at: string };
const fixture = JSON.parse(readFileSync(join(ROOT, 'spec', 'fixtures', 'snapshots', 'run-v15.json'), 'utf8')) as {
  events: Stored[]; snapshot: { v: number; state: unknown };
};

// as JSON, as a snapshot is stored: a field the fold leaves undefined (a run's model) is absent there
const folded = (events: readonly Stored[]): unknown => {
  let s: RunState | undefined;
  events.forEach((e, i) => { s = applyStored(s ?? createdState(e as Extract<RunEvent, { type: 'RunCreated' }>, e.at), { ...e, seq: i + 1 }); });
  return JSON.parse(JSON.stringify(s));
};

test('a version-15 run state is upcast to what the split fold makes of its journal', (t) => {
  t.is(fixture.snapshot.v, 15);
  t.deepEqual(RUN_UPCASTS[15]!(fixture.snapshot.state), folded(fixture.events));
});

test('the fixture holds every field the split moved, so the upcast is shown on each', (t) => {
  const old = fixture.snapshot.state as Record<string, unknown>;
  for (const k of ['createdAt', 'startedBy', 'restartOf', 'startedAt', 'endedAt', 'pausedBy', 'sandbox', 'answers', 'reviews', 'undelivered', 'usageCells']) t.not(old[k], undefined, k);
});

test('a store holding a version-15 snapshot opens without refolding, and appends go on from it', async (t) => {
  const path = join(tempDir(), 'db');
  const first = openStore(path);
  const runs = new EventStream(new Journal(first), RUN_KIND, first);
  for (const e of fixture.events) runs.transact('r1', () => ({ _tag: 'Right', right: [{ type: e.type, data: e.data } as RunEvent] }) as const, { at: e.at, onStale: 'retry' });
  // the snapshot as the code before the split stored it, in place of the one just written
  first.db('run-snapshots').putSync(runStream('r1'), fixture.snapshot);
  await first.close();

  const store = openStore(path);
  t.teardown(() => store.close());
  const folds = { n: 0 };
  const kind: StreamKind<RunState, RunEvent> = { ...RUN_KIND, evolve: (s, e, key) => { folds.n += 1; return RUN_KIND.evolve(s, e, key); } };
  const counted = new EventStream(new Journal(store), kind, store);
  counted.load();
  t.deepEqual(JSON.parse(JSON.stringify(counted.get('r1'))), folded(fixture.events));
  t.is(folds.n, 0, 'nothing refolded');

  const resolved: Stored = { type: 'RunResolved', data: { by: { kind: 'person' } }, at: '2026-11-20T11:30:00.000Z' } as Stored;
  counted.transact('r1', () => ({ _tag: 'Right', right: [{ type: resolved.type, data: resolved.data } as RunEvent] }) as const, { at: resolved.at, onStale: 'retry' });
  t.deepEqual(JSON.parse(JSON.stringify(counted.get('r1'))), folded([...fixture.events, resolved]));
});
