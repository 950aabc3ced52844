import { isLeft } from 'fp-ts/lib/Either.js';
import { join } from 'node:path';
import type { RunEvent } from '../journal/run-events.js';
import { closeService } from '../lib/root/open.js';
import type { Service } from '../lib/root/service.js';
import { benchTmp, heapAfterGc, median, now, percentile, removeDir, replyText, row, within, type BenchResult, type Row } from './common.js';
import { bareWaiters, httpWaiters } from './http-waiters.js';
import { BY, appendRun, benchService, createRuns } from './service-setup.js';

// waitForRun at the facade: 1,000 waiters on one active run, then one Pause (or Resume) through
// service.control. Wake latency is timed from the moment the journal starts telling its listeners
// (the append is durable: a listener subscribed before the waiters marks it) to each waiter's
// resolution; the baseline is one waiter woken the same way. Heap per waiter is measured after a
// GC against 1,000 plain pending promises (each kept with its resolve function).

const BENCH = 'wait-waiters';
const WAITERS = 1_000;
const SINGLE_TRIALS = 40;
const ROUNDS = 3;
const WAKE_LIMIT_MS = 15_000;
const HTTP_SINGLE_TRIALS = 20;

const activate = (service: Service, runId: string): void => {
  const events: RunEvent[] = [
    { type: 'RunQueued', data: { by: BY } },
    { type: 'RunStarted', data: { node: 'work' } },
    { type: 'WorktreesPrepared', data: { checkouts: [] } },
    { type: 'StepStarted', data: { stepId: 'step-1', node: 'work', kind: 'agent', attempt: 1 } },
  ];
  if (!appendRun(service, runId, events)) throw new Error('stale');
};

/** Pause when running, Resume when paused: each flips the standing, so every waiter wakes. */
const flip = (service: Service, runId: string): void => {
  const run = service.getRun(runId);
  if (isLeft(run)) throw new Error('no run');
  const action = run.right.standing === 'Paused' ? 'Resume' : 'Pause';
  const r = service.control(runId, { position: run.right.position, action }, BY);
  if (isLeft(r) || r.right.outcome !== 'Applied') throw new Error(`${action} not applied: ${JSON.stringify(isLeft(r) ? r.left : r.right.outcome)}`);
};

/** Wakes `n` waiters with one flip; latencies in ms from the start of the journal's notification. */
const wake = async (service: Service, runId: string, n: number): Promise<{ lat: number[]; controlMs: number }> => {
  let committed = 0;
  const mark = service.core.journal.subscribe(() => { committed ||= now(); });
  const lat: number[] = [];
  const waiters = Array.from({ length: n }, () => service.waitForRun(runId, 60_000).then((r) => {
    lat.push(now() - committed);
    if (isLeft(r) || r.right.changed !== 'Standing') throw new Error(`woke with ${JSON.stringify(isLeft(r) ? r.left : r.right.changed)}`);
  }));
  const t = now();
  flip(service, runId);
  const controlMs = now() - t;
  mark();
  await within(Promise.all(waiters), WAKE_LIMIT_MS, `${n} waiters`);
  return { lat, controlMs };
};

/** Bytes of heap per item while `n` items made by `make` are alive. */
const heapPer = async <T>(n: number, make: () => T, release: (items: T[]) => Promise<void>): Promise<number> => {
  const before = heapAfterGc();
  const items = Array.from({ length: n }, make);
  const during = heapAfterGc();
  await release(items);
  return (during - before) / n;
};

/** Append cost of another run's events while `waiters` wait on `runId` (batched commits: the fsync is not the subject). */
const unrelatedAppendUs = (service: Service, other: string): number => {
  const t = now();
  const n = 2_000;
  for (let i = 0; i < n; i += 200) {
    service.core.store.root.transactionSync(() => {
      for (let j = i; j < i + 200; j++) appendRun(service, other, [{ type: 'AgentReplied', data: { stepId: 'step-1', text: replyText(j) } }]);
    });
  }
  return ((now() - t) * 1000) / n;
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const { service, projectId } = await benchService(join(tmp, 'svc-home'), tmp);
  const [runId, other] = createRuns(service, projectId, 2);
  activate(service, runId!);
  activate(service, other!);

  for (let i = 0; i < 10; i++) await wake(service, runId!, 1); // warm-up
  const singles: number[] = [];
  for (let i = 0; i < SINGLE_TRIALS; i++) singles.push(...(await wake(service, runId!, 1)).lat);
  const many: { p50: number; p99: number; controlMs: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const w = await wake(service, runId!, WAITERS);
    many.push({ p50: percentile(w.lat, 50), p99: percentile(w.lat, 99), controlMs: w.controlMs });
  }

  const http = await httpWaiters(service, runId!, WAKE_LIMIT_MS);
  let httpSingles: number[] = [];
  const httpSingleCpu: number[] = [];
  const httpMany: { p50: number; p99: number; cpuMs: number }[] = [];
  try {
    for (let i = 0; i < 5; i++) await http.wake(1, () => flip(service, runId!)); // warm-up
    await http.wake(WAITERS, () => flip(service, runId!)); // warm-up: the first 1,000 sockets and responses run cold code
    for (let i = 0; i < HTTP_SINGLE_TRIALS; i++) {
      const w = await http.wake(1, () => flip(service, runId!));
      httpSingles = [...httpSingles, ...w.lat];
      httpSingleCpu.push(w.cpuMs);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const w = await http.wake(WAITERS, () => flip(service, runId!));
      httpMany.push({ p50: percentile(w.lat, 50), p99: percentile(w.lat, 99), cpuMs: w.cpuMs });
    }
  } finally {
    await http.close();
  }

  // The floor on this machine: bare node:http answering as many held requests with the same bytes.
  const detail = service.getRun(runId!);
  if (isLeft(detail)) throw new Error('no run');
  const bare = await bareWaiters(Buffer.from(JSON.stringify({ run: detail.right, changed: 'Standing' })), WAKE_LIMIT_MS);
  let bareSingles: number[] = [];
  const bareMany: { p50: number; cpuMs: number }[] = [];
  try {
    for (let i = 0; i < 5; i++) await bare.wake(1, () => undefined);
    await bare.wake(WAITERS, () => undefined);
    for (let i = 0; i < HTTP_SINGLE_TRIALS; i++) bareSingles = [...bareSingles, ...(await bare.wake(1, () => undefined)).lat];
    for (let r = 0; r < ROUNDS; r++) {
      const w = await bare.wake(WAITERS, () => undefined);
      bareMany.push({ p50: percentile(w.lat, 50), cpuMs: w.cpuMs });
    }
  } finally {
    await bare.close();
  }

  // Heap is noisy at this size: median of three measurements of each.
  const plains: number[] = [];
  const waiters: number[] = [];
  for (let i = 0; i < 3; i++) {
    plains.push(await heapPer(WAITERS, () => { let resolve!: () => void; const p = new Promise<void>((r) => { resolve = r; }).then(() => undefined); return { p, resolve }; },
      async (items) => { for (const x of items) x.resolve(); await Promise.all(items.map((x) => x.p)); }));
    waiters.push(await heapPer(WAITERS, () => { const ac = new AbortController(); return { p: service.waitForRun(runId!, 60_000, ac.signal).then(() => undefined), ac }; },
      async (items) => { for (const x of items) x.ac.abort(); await Promise.all(items.map((x) => x.p)); }));
  }
  const plain = median(plains);
  const waiter = median(waiters);

  // Appends to another run while 1,000 waiters listen on this one, against no waiters at all.
  unrelatedAppendUs(service, other!);
  const quiet = unrelatedAppendUs(service, other!);
  const ac = new AbortController();
  const held = Array.from({ length: WAITERS }, () => service.waitForRun(runId!, 60_000, ac.signal));
  const busy = unrelatedAppendUs(service, other!);
  ac.abort();
  await Promise.all(held);

  // What each woken waiter builds for its answer (detailOf), 1,000 times: the suspected cost.
  const td = now();
  for (let i = 0; i < WAITERS; i++) service.getRun(runId!);
  const detailsMs = now() - td;

  await closeService(service);
  removeDir(tmp);
  const single = median(singles);
  const p50 = median(many.map((m) => m.p50));
  const p99 = median(many.map((m) => m.p99));
  const rows: Row[] = [
    row({ bench: BENCH, measure: `wake p50, ${WAITERS.toLocaleString('en-US')} waiters, one Pause/Resume`, measured: p50, baseline: single, unit: 'ms', baselineLabel: 'one waiter woken alike (median)', target: { op: '<', value: 50 } }),
    row({ bench: BENCH, measure: `wake p99, ${WAITERS.toLocaleString('en-US')} waiters`, measured: p99, baseline: single, unit: 'ms', baselineLabel: 'one waiter woken alike (median)', target: { op: '<', value: 50 } }),
    row({ bench: BENCH, measure: `HTTP wake p50, ${WAITERS.toLocaleString('en-US')} GET /wait`, measured: median(httpMany.map((m) => m.p50)), baseline: median(httpSingles), unit: 'ms', baselineLabel: 'one HTTP waiter woken alike', target: { op: '<', value: 50 } }),
    row({ bench: BENCH, measure: `HTTP wake p99, ${WAITERS.toLocaleString('en-US')} GET /wait`, measured: median(httpMany.map((m) => m.p99)), baseline: median(httpSingles), unit: 'ms', baselineLabel: 'one HTTP waiter woken alike', target: { op: '<', value: 50 } }),
    row({ bench: BENCH, measure: `HTTP wake p50, ${WAITERS.toLocaleString('en-US')} GET /wait, against bare node:http`, measured: median(httpMany.map((m) => m.p50)), baseline: median(bareMany.map((m) => m.p50)), unit: 'ms', baselineLabel: `bare node:http answering ${WAITERS.toLocaleString('en-US')} held requests`, target: { op: '<', value: 2 } }),
    row({ bench: BENCH, measure: `bare node:http: ${WAITERS.toLocaleString('en-US')} held requests answered, p50`, measured: median(bareMany.map((m) => m.p50)), baseline: median(bareSingles), unit: 'ms', baselineLabel: 'bare node:http answering one' }),
    row({ bench: BENCH, measure: `HTTP wake, server CPU, ${WAITERS.toLocaleString('en-US')} GET /wait`, measured: median(httpMany.map((m) => m.cpuMs)), baseline: median(httpSingleCpu), unit: 'ms CPU', baselineLabel: 'one HTTP waiter woken alike' }),
    row({ bench: BENCH, measure: 'heap per waiter (waitForRun with a signal)', measured: waiter, baseline: plain, unit: 'B/waiter', baselineLabel: 'plain pending promise + resolve', target: { op: '<', value: 10 } }),
    row({ bench: BENCH, measure: `append to another run while ${WAITERS.toLocaleString('en-US')} wait`, measured: busy, baseline: quiet, unit: 'µs/append', baselineLabel: 'same appends, no waiters', target: { op: '<', value: 1.5 } }),
  ];
  return {
    bench: BENCH, rows, seconds: (Date.now() - t0) / 1000,
    notes: [
      `single-waiter wake: median of ${singles.length} trials (p99 ${percentile(singles, 99).toFixed(3)} ms); ${WAITERS} waiters: median of ${ROUNDS} rounds; the control call that woke them took ${median(many.map((m) => m.controlMs)).toFixed(1)} ms (its durable commit included)`,
      `for comparison, ${WAITERS} getRun calls (the run detail each waiter builds when it wakes) take ${detailsMs.toFixed(1)} ms`,
      `HTTP: one GET /api/runs/:id/wait?timeout=60 per socket (node:http, keep-alive agent) from a client process, timed from the same commit mark to each body read; one warm-up round of ${WAITERS}; single: median of ${httpSingles.length} trials`,
      `HTTP server CPU (user + system of the server's process, from the change to the last answer read; the change's own durable commit included): ${((median(httpMany.map((m) => m.cpuMs)) - median(httpSingleCpu)) * 1000 / (WAITERS - 1)).toFixed(1)} µs per further waiter`,
      `the floor: a bare node:http server (no Koa, no service) holding ${WAITERS} requests from the same client and answering each with the same ${'answer-sized'} bytes: p50 ${median(bareMany.map((m) => m.p50)).toFixed(1)} ms, server CPU ${median(bareMany.map((m) => m.cpuMs)).toFixed(0)} ms; one: ${median(bareSingles).toFixed(3)} ms. Where the floor itself is over 50 single answers, the 50x target measures the machine (loopback syscalls), not svc`,
      `heap (median of 3, after GC): waitForRun ${waiters.map(Math.round).join('/')} B per call, its AbortController included (the HTTP route makes one per request too); plain promise ${plains.map(Math.round).join('/')} B`,
      'targets for this benchmark are this author\'s: waking 1,000 should cost under 50 single wakes (work shared, not repeated per waiter); a waiter under 10 plain promises; other runs\' appends barely slowed',
    ],
  };
};
