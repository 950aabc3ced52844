import { open } from 'lmdb';
import { join } from 'node:path';
import { Journal, type NewEvent } from '../journal/journal.js';
import { openStore } from '../journal/store.js';
import { benchTmp, bounded, median, removeDir, replyText, row, type BenchResult } from './common.js';

// Journal.append (expected-seq check, head update, one synchronous durable LMDB transaction) against
// raw lmdb puts of the same values under the same [stream, seq] keys, each in a fresh environment
// opened with the same options as openStore. Rounds alternate the four variants to share the noise.

const BENCH = 'journal-append';
const STREAM = 'run:r-bench';
const BATCH = 100;
const ROUNDS = 3;
const MAX_MS = 2_000;

const event = (i: number): NewEvent => ({ type: 'AgentReplied', data: { stepId: 'step-1', text: replyText(i) } });

type Variant = (dir: string) => Promise<number>; // events per second

const rawEnv = (dir: string) => open({ path: dir, maxDbs: 64, compression: false, mapSize: 2 * 1024 ** 3, eventTurnBatching: true });

const rawSingle: Variant = async (dir) => {
  const root = rawEnv(dir);
  const db = root.openDB({ name: 'events' });
  const at = new Date().toISOString();
  const { n, ms } = bounded((i) => { const e = event(i); db.putSync([STREAM, i + 1], { type: e.type, data: e.data, at }); }, 20_000, MAX_MS);
  await root.close();
  return (n / ms) * 1000;
};

const rawBatched: Variant = async (dir) => {
  const root = rawEnv(dir);
  const db = root.openDB({ name: 'events' });
  const at = new Date().toISOString();
  const { n, ms } = bounded((b) => root.transactionSync(() => {
    for (let j = 0; j < BATCH; j++) { const seq = b * BATCH + j + 1; const e = event(seq); db.putSync([STREAM, seq], { type: e.type, data: e.data, at }); }
  }), 2_000, MAX_MS);
  await root.close();
  return ((n * BATCH) / ms) * 1000;
};

const journalSingle: Variant = async (dir) => {
  const store = openStore(dir);
  const journal = new Journal(store);
  const at = new Date().toISOString();
  const { n, ms } = bounded((i) => { const r = journal.append(STREAM, i, [event(i + 1)], at); if (r._tag !== 'Appended') throw new Error('stale'); }, 20_000, MAX_MS);
  await store.close();
  return (n / ms) * 1000;
};

const journalBatched: Variant = async (dir) => {
  const store = openStore(dir);
  const journal = new Journal(store);
  const at = new Date().toISOString();
  const { n, ms } = bounded((b) => {
    const events = Array.from({ length: BATCH }, (_, j) => event(b * BATCH + j + 1));
    if (journal.append(STREAM, b * BATCH, events, at)._tag !== 'Appended') throw new Error('stale');
  }, 2_000, MAX_MS);
  await store.close();
  return ((n * BATCH) / ms) * 1000;
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const variants = { rawSingle, journalSingle, rawBatched, journalBatched };
  const rates: Record<keyof typeof variants, number[]> = { rawSingle: [], journalSingle: [], rawBatched: [], journalBatched: [] };
  const tmp = benchTmp(BENCH);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, v] of Object.entries(variants) as [keyof typeof variants, Variant][]) {
      const dir = join(tmp, `${name}-${round}`);
      try { rates[name].push(await v(dir)); } finally { removeDir(dir); }
    }
  }
  removeDir(tmp);
  const m = (k: keyof typeof rates) => median(rates[k]);
  const rows = [
    row({ bench: BENCH, measure: 'single-event durable appends', measured: m('journalSingle'), baseline: m('rawSingle'), unit: 'events/s', baselineLabel: 'raw putSync, 1 per txn', target: { op: '>=', value: 0.5 } }),
    row({ bench: BENCH, measure: `batched appends (${BATCH}/append)`, measured: m('journalBatched'), baseline: m('rawBatched'), unit: 'events/s', baselineLabel: `raw transactionSync, ${BATCH} puts`, target: { op: '>=', value: 0.5 } }),
  ];
  return { bench: BENCH, rows, notes: [`median of ${ROUNDS} rounds, each variant in a fresh environment, ≤ ${MAX_MS} ms per variant per round; values ~${JSON.stringify({ type: 'AgentReplied', data: event(1).data, at: new Date().toISOString() }).length} bytes as JSON`], seconds: (Date.now() - t0) / 1000 };
};
