import { right } from 'fp-ts/lib/Either.js';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { decodeStored, isUnreadable } from '../journal/decode.js';
import { RUN_EVENT_CODECS, type RunEvent, type RunEventOf } from '../journal/run-events.js';
import { localDay, turnSums } from '../projections/usage-days.js';
import { startServer } from '../lib/cli/serve.js';
import { closeService } from '../lib/root/open.js';
import type { Service } from '../lib/root/service.js';
import { benchTmp, median, now, removeDir, row, type BenchResult, type Row } from './common.js';
import { benchService, createRuns } from './service-setup.js';

// GET /api/usage over 10,000 runs with usage recorded, against what answering without the read
// model would cost: reading every run's journal and summing its UsageRecorded events, measured in
// the same process, rounds alternating. The read model is what keeps the route under a tenth of it.

const BENCH = 'usage';
const RUNS = 10_000;
const TURNS = 5;
const ROUNDS = 7;
const HARNESSES = ['claude', 'codex', 'opencode'] as const;
const DAY_MS = 86_400_000;

const turn = (i: number, k: number): RunEvent => ({
  type: 'UsageRecorded',
  data: {
    stepId: `step-${k}`, node: 'work', harness: HARNESSES[(i + k) % 3]!, model: `model-${(i * 7 + k) % 5}`,
    tokens: { input: 1000 + k, cachedInput: 100, output: 50 + (i % 13) },
    cost: (i + k) % 11 === 0 ? { _tag: 'Unknown', why: 'no price' } : { _tag: 'Reported', usd: 0.01 * ((i + k) % 7 + 1) },
  },
});

// Usage spread over the 30 days before today, 250 runs to a durable commit (setup, not measured).
const recordUsage = (service: Service, ids: readonly string[]): void => {
  const today = Date.now();
  for (let i = 0; i < ids.length; i += 250) {
    service.core.store.root.transactionSync(() => {
      for (let j = i; j < Math.min(ids.length, i + 250); j++) {
        for (let k = 0; k < TURNS; k++) {
          const at = new Date(today - ((j + k) % 30) * DAY_MS).toISOString();
          service.core.runs.transact(ids[j]!, () => right([turn(j, k)]), { at, onStale: 'retry' });
        }
      }
    });
  }
};

/** The answer without a read model: every run's journal read, decoded and summed by day. */
const scan = (service: Service, from: string, to: string): number => {
  const { journal } = service.core;
  const sums = new Map<string, number>();
  for (const stream of journal.streams('run:')) {
    for (const raw of journal.read(stream)) {
      if (raw.type !== 'UsageRecorded') continue;
      const d = decodeStored<RunEventOf<'UsageRecorded'>>(RUN_EVENT_CODECS, raw);
      if (isUnreadable(d)) continue;
      const day = localDay(d.at);
      if (day < from || day > to) continue;
      sums.set(day, (sums.get(day) ?? 0) + turnSums(d.data).costUsd);
    }
  }
  return sums.size;
};

// A fresh connection per request (no keep-alive): a socket idle through a long scan is not reused
// after the server has closed it.
const getText = (url: string): Promise<string> => new Promise((resolve, reject) => {
  httpGet(url, { agent: false }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => { body += c; });
    res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode}`))));
    res.on('error', reject);
  }).on('error', reject);
});

const timed = async (f: () => Promise<unknown> | unknown): Promise<number> => {
  const t = now();
  await f();
  return now() - t;
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const home = join(tmp, 'svc-home');
  const tc = now();
  const { service: setup, projectId } = await benchService(home, tmp);
  const ids = createRuns(setup, projectId, RUNS);
  recordUsage(setup, ids);
  await closeService(setup);
  const createS = (now() - tc) / 1000;
  const real = await startServer({ home, port: 0, bind: '127.0.0.1' });
  const rows: Row[] = [];
  const notes: string[] = [`${RUNS.toLocaleString('en-US')} runs with ${TURNS} UsageRecorded each over 30 days, made in ${createS.toFixed(1)} s; ${ROUNDS} alternating rounds, medians`];
  try {
    const first = JSON.parse(await getText(`${real.url}/api/usage`)) as { from: string; to: string; total: { turns: number } };
    if (first.total.turns !== RUNS * TURNS) throw new Error(`the usage route counts ${first.total.turns} turns, not ${RUNS * TURNS}`);
    const cases = [
      { groupBy: 'day', fresh: false }, { groupBy: 'harness', fresh: false }, { groupBy: 'run', fresh: false },
      { groupBy: 'day', fresh: true }, { groupBy: 'run', fresh: true },
    ] as const;
    let extra = 0;
    for (const { groupBy, fresh } of cases) {
      const url = `${real.url}/api/usage?groupBy=${groupBy}`;
      const get = () => getText(url);
      const bytes = (await get()).length;
      const routeMs: number[] = [];
      const scanMs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // fresh: a turn is recorded just before the read, so the answer is summed again, not kept
        const read = async () => { if (fresh) recordUsage(real.service, [ids[extra++ % ids.length]!]); routeMs.push(await timed(get)); };
        const pair = [read, async () => scanMs.push(await timed(() => scan(real.service, first.from, first.to)))];
        for (const f of round % 2 === 0 ? pair : pair.reverse()) await f();
      }
      const what = `GET /api/usage?groupBy=${groupBy} (${bytes.toLocaleString('en-US')} B), ${fresh ? 'right after a UsageRecorded' : 'read again'}`;
      rows.push(row({ bench: BENCH, measure: what, measured: median(routeMs), baseline: median(scanMs), unit: 'ms', baselineLabel: `full journal scan of ${(RUNS * (TURNS + 1)).toLocaleString('en-US')} events, summed by day`, target: { op: '<', value: 0.1 } }));
    }
  } finally {
    await real.close();
  }
  removeDir(tmp);
  return { bench: BENCH, rows, notes, seconds: (Date.now() - t0) / 1000 };
};
