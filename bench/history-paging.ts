import { isLeft } from 'fp-ts/lib/Either.js';
import { join } from 'node:path';
import type { RunEvent } from '../journal/run-events.js';
import { closeService } from '../lib/root/open.js';
import { runStream } from '../lib/state/run-stream.js';
import { benchTmp, median, now, removeDir, replyText, row, type BenchResult } from './common.js';
import { appendRun, benchService, createRuns } from './service-setup.js';

// A run with 100,000 events: a page of 200 at the end (newest, before = undefined) against a page
// at the start (before = 201), straight from Journal.page and through the facade's readHistory
// (which decodes every event of the page). The ratio end/start says whether paging is O(page).

const BENCH = 'history-paging';
const EVENTS = 100_000;
const APPEND_BATCH = 1_000;
const PAGE = 200;
const WARMUP = 300;
const ROUNDS = 15;
const PER_ROUND = 150;
const MAX_MS = 25_000;

const reply = (i: number): RunEvent => ({ type: 'AgentReplied', data: { stepId: 'step-1', text: replyText(i) } });

/** Median µs per call of each of two functions, alternating which goes first, bounded in time. */
const compare = (a: () => unknown, b: () => unknown, budgetMs: number): { a: number; b: number; rounds: number } => {
  for (let i = 0; i < WARMUP; i++) { a(); b(); }
  const as: number[] = [];
  const bs: number[] = [];
  const t0 = now();
  const time = (f: () => unknown) => { const t = now(); for (let i = 0; i < PER_ROUND; i++) f(); return ((now() - t) * 1000) / PER_ROUND; };
  for (let r = 0; r < ROUNDS && now() - t0 < budgetMs; r++) {
    if (r % 2 === 0) { as.push(time(a)); bs.push(time(b)); } else { bs.push(time(b)); as.push(time(a)); }
  }
  return { a: median(as), b: median(bs), rounds: as.length };
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const home = join(tmp, 'svc-home');
  const { service, projectId } = await benchService(home, tmp);
  const [runId] = createRuns(service, projectId, 1);
  const tw = now();
  for (let from = 0; from < EVENTS - 1; from += APPEND_BATCH) {
    const n = Math.min(APPEND_BATCH, EVENTS - 1 - from);
    if (!appendRun(service, runId!, Array.from({ length: n }, (_, j) => reply(from + j)))) throw new Error('stale');
  }
  const writeS = (now() - tw) / 1000;
  const journal = service.core.journal;
  const stream = runStream(runId!);
  const head = journal.head(stream);
  const end = journal.page(stream, undefined, PAGE);
  const start = journal.page(stream, PAGE + 1, PAGE);
  if (end.length !== PAGE || end[PAGE - 1]!.seq !== head || start[0]!.seq !== 1 || start.length !== PAGE) throw new Error('pages are not what they should be');
  const history = (before: number | undefined) => () => { const r = service.readHistory(runId!, before, PAGE); if (isLeft(r) || r.right.events.length !== PAGE) throw new Error('bad page'); };

  const raw = compare(() => journal.page(stream, undefined, PAGE), () => journal.page(stream, PAGE + 1, PAGE), MAX_MS / 2);
  const facade = compare(history(undefined), history(PAGE + 1), MAX_MS / 2);
  await closeService(service);
  removeDir(tmp);
  const rows = [
    row({ bench: BENCH, measure: `Journal.page(${PAGE}) at end of ${head.toLocaleString('en-US')} events`, measured: raw.a, baseline: raw.b, unit: 'µs/page', baselineLabel: 'same page at start (before=201)', target: { op: '<', value: 1.5 } }),
    row({ bench: BENCH, measure: `readHistory(${PAGE}) at end, decoded`, measured: facade.a, baseline: facade.b, unit: 'µs/page', baselineLabel: 'same at start (before=201)', target: { op: '<', value: 1.5 } }),
  ];
  return {
    bench: BENCH, rows, seconds: (Date.now() - t0) / 1000,
    notes: [`${head.toLocaleString('en-US')} events written in ${APPEND_BATCH}-event appends through the run streams in ${writeS.toFixed(1)} s; median of ${raw.rounds}/${facade.rounds} rounds × ${PER_ROUND} pages after ${WARMUP} warm-up pages each`],
  };
};
