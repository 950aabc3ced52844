import Koa from 'koa';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startServer } from '../lib/cli/serve.js';
import { closeService } from '../lib/root/open.js';
import { benchTmp, median, now, removeDir, replyText, row, type BenchResult, type Row } from './common.js';
import { LoadDriver, type LoadResult } from './load.js';
import { appendRun, benchService, createRuns } from './service-setup.js';

// 10,000 runs made through the real startRun, then the real server (startServer on port 0, the
// scripted harness set) against a bare Koa server on another port that answers the same bytes as
// a constant. Load comes from a worker thread; real and bare alternate, rounds summed.

const BENCH = 'runs-list';
const RUNS = 10_000;
const ROUNDS = 3;

// `appending`: one run appends an AgentReplied every APPEND_MS while the list is read, the way a
// single agent at work does; the bare server answers the same constant.
interface Case { readonly path: string; readonly count: number; readonly concurrency: number; readonly maxMs: number; readonly warmup: number; readonly appending?: boolean }
const CASES: readonly Case[] = [
  { path: '/api/runs', count: 120, concurrency: 4, maxMs: 8_000, warmup: 10 },
  { path: '/api/runs', count: 120, concurrency: 4, maxMs: 8_000, warmup: 10, appending: true },
  { path: '/api/health', count: 3_000, concurrency: 16, maxMs: 5_000, warmup: 300 },
];
const APPEND_MS = 50;
// The real-against-bare cases ask for the body as it is: the bare server does not gzip.
const IDENTITY = { 'accept-encoding': 'identity' } as const;

// The list read again: full (identity), gzip (fetch unzips, as a browser does), and unchanged
// (If-None-Match with the current ETag: 304), on the real server only, rounds alternating.
// 8 in flight for all three, so each runs the server flat out and req/s reads as a cost.
const REREAD = { count: 120, concurrency: 8, maxMs: 8_000, warmup: 10 } as const;
const REREAD_304 = { count: 2_000, concurrency: 8, maxMs: 5_000, warmup: 200 } as const;

const bareServer = async (bodies: ReadonlyMap<string, string>): Promise<{ url: string; server: Server }> => {
  const app = new Koa();
  app.use((ctx) => {
    const body = bodies.get(ctx.path);
    if (body === undefined) { ctx.status = 404; return; }
    ctx.type = 'application/json';
    ctx.body = body;
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

const sizeText = (n: number) => (n >= 10_240 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);

/** One GET with raw node:http (fetch would unzip): status, headers and the bytes on the wire. */
const rawGet = (url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: number }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
const listedIds = (body: string) => (JSON.parse(body) as { runId?: string; id?: string }[]).map((r) => (r.runId ?? r.id)!);

const sum = (rs: readonly LoadResult[]) => {
  const done = rs.reduce((a, r) => a + r.done, 0);
  const ms = rs.reduce((a, r) => a + r.ms, 0);
  const failed = rs.reduce((a, r) => a + r.failed, 0);
  return { done, failed, rps: (done / ms) * 1000, p50: Math.max(...rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)) };
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const home = join(tmp, 'svc-home');
  const tc = now();
  const { service } = await benchService(home, tmp).then(async (s) => { createRuns(s.service, s.projectId, RUNS); return s; });
  await closeService(service);
  const createS = (now() - tc) / 1000;
  const ts = now();
  const real = await startServer({ home, port: 0, bind: '127.0.0.1' });
  const startS = (now() - ts) / 1000;
  const bodies = new Map<string, string>();
  for (const c of CASES.filter((x) => !x.appending)) {
    const r = await fetch(real.url + c.path);
    if (r.status !== 200) throw new Error(`${c.path}: ${r.status}`);
    bodies.set(c.path, await r.text());
  }
  const listed = listedIds(bodies.get('/api/runs')!).length;
  if (listed !== RUNS) throw new Error(`the runs list has ${listed} runs, not ${RUNS}`);
  const bare = await bareServer(bodies);
  const driver = new LoadDriver();
  const busyRun = listedIds(bodies.get('/api/runs')!)[0]!;
  let replies = 0;
  const appender = (on: boolean) => (on ? setInterval(() => {
    appendRun(real.service, busyRun, [{ type: 'AgentReplied', data: { stepId: 'step-1', text: replyText(replies++) } }]);
  }, APPEND_MS) : null);
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    for (const c of CASES) {
      const job = async (base: string, count: number) => {
        const timer = appender(c.appending === true && base === real.url);
        try { return await driver.run({ url: base + c.path, count, concurrency: c.concurrency, maxMs: c.maxMs, headers: IDENTITY }); } finally { if (timer) clearInterval(timer); }
      };
      await job(real.url, c.warmup);
      await job(bare.url, c.warmup);
      const rs: LoadResult[] = [];
      const bs: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2 === 0) { rs.push(await job(real.url, c.count)); bs.push(await job(bare.url, c.count)); } else { bs.push(await job(bare.url, c.count)); rs.push(await job(real.url, c.count)); }
      }
      const r = sum(rs);
      const b = sum(bs);
      if (r.failed || b.failed) notes.push(`${c.path}: ${r.failed} real and ${b.failed} bare requests failed`);
      const what = `GET ${c.path} (${sizeText(bodies.get(c.path)!.length)}, ${c.concurrency} in flight${c.appending ? `, a run appending every ${APPEND_MS} ms` : ''})`;
      rows.push(row({ bench: BENCH, measure: what, measured: r.rps, baseline: b.rps, unit: 'req/s', baselineLabel: 'bare Koa, same bytes', target: { op: '<', value: 2 }, slowdown: true }));
      notes.push(`${what}: ${r.done}/${b.done} requests; latency p50/p99 real ${r.p50.toFixed(1)}/${r.p99.toFixed(1)} ms, bare ${b.p50.toFixed(1)}/${b.p99.toFixed(1)} ms`);
    }
    // The list read again with nothing changed: ETag / If-None-Match (304) and gzip, against the full list.
    const url = real.url + '/api/runs';
    const plain = await rawGet(url, IDENTITY);
    const zipped = await rawGet(url, { 'accept-encoding': 'gzip' });
    const etag = String(plain.headers['etag'] ?? '');
    if (!etag || zipped.headers['content-encoding'] !== 'gzip' || zipped.headers['etag'] !== etag) throw new Error(`/api/runs: no ETag or no gzip (${JSON.stringify(zipped.headers)})`);
    const conditional = { 'accept-encoding': 'identity', 'if-none-match': etag };
    if ((await rawGet(url, conditional)).status !== 304) throw new Error('/api/runs: If-None-Match with the current ETag is not 304');
    const reread = { full: [] as LoadResult[], gzip: [] as LoadResult[], unchanged: [] as LoadResult[] };
    const readFull = (count: number) => driver.run({ url, count, concurrency: REREAD.concurrency, maxMs: REREAD.maxMs, headers: IDENTITY });
    const readGzip = (count: number) => driver.run({ url, count, concurrency: REREAD.concurrency, maxMs: REREAD.maxMs, headers: { 'accept-encoding': 'gzip' } });
    const read304 = (count: number) => driver.run({ url, count, concurrency: REREAD_304.concurrency, maxMs: REREAD_304.maxMs, headers: conditional, status: 304 });
    await readFull(REREAD.warmup); await readGzip(REREAD.warmup); await read304(REREAD_304.warmup);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['full', 'gzip', 'unchanged'] as const) : (['unchanged', 'gzip', 'full'] as const);
      for (const k of order) reread[k].push(await (k === 'full' ? readFull(REREAD.count) : k === 'gzip' ? readGzip(REREAD.count) : read304(REREAD_304.count)));
    }
    const full = sum(reread.full);
    const gz = sum(reread.gzip);
    const unchanged = sum(reread.unchanged);
    if (full.failed || gz.failed || unchanged.failed) notes.push(`re-reads failed: full ${full.failed}, gzip ${gz.failed}, 304 ${unchanged.failed}`);
    // A cost per request is 1 / throughput, so cost(304) / cost(full) is full req/s over 304 req/s.
    rows.push(row({ bench: BENCH, measure: `GET /api/runs unchanged: If-None-Match, 304 (${REREAD_304.concurrency} in flight)`, measured: unchanged.rps, baseline: full.rps, unit: 'req/s', baselineLabel: `the full list (${sizeText(plain.bytes)}), same server`, target: { op: '<', value: 0.1 }, slowdown: true }));
    rows.push(row({ bench: BENCH, measure: 'GET /api/runs gzip: bytes on the wire', measured: zipped.bytes, baseline: plain.bytes, unit: 'B', baselineLabel: 'the list as it is (identity)' }));
    rows.push(row({ bench: BENCH, measure: 'GET /api/runs gzip (client unzips), requests/s', measured: gz.rps, baseline: full.rps, unit: 'req/s', baselineLabel: 'the full list, identity, same server', slowdown: true }));
    notes.push(`re-reads of /api/runs, ${ROUNDS} alternating rounds: full ${full.rps.toFixed(0)} req/s (p50 ${full.p50.toFixed(1)} ms), gzip ${gz.rps.toFixed(0)} req/s (p50 ${gz.p50.toFixed(1)} ms, ${sizeText(zipped.bytes)} on the wire), 304 ${unchanged.rps.toFixed(0)} req/s (p50 ${unchanged.p50.toFixed(2)} ms)`);

    // What one change costs the next reader: the whole body is rebuilt (views of every run + JSON).
    const rebuilds: number[] = [];
    const stringify: number[] = [];
    const views = real.service.listHttpRuns();
    for (let i = 0; i < 10; i++) {
      appendRun(real.service, busyRun, [{ type: 'AgentReplied', data: { stepId: 'step-1', text: replyText(replies++) } }]);
      const t = now();
      real.service.httpRunsJson();
      rebuilds.push(now() - t);
      const u = now();
      JSON.stringify(views);
      stringify.push(now() - u);
    }
    rows.push(row({ bench: BENCH, measure: `rebuild of the /api/runs body after one AgentReplied (in process)`, measured: median(rebuilds), baseline: median(stringify), unit: 'ms', baselineLabel: 'JSON.stringify of the same views' }));
  } finally {
    await driver.close();
    bare.server.closeAllConnections();
    await new Promise<void>((resolve) => bare.server.close(() => resolve()));
    await real.close();
  }
  removeDir(tmp);
  notes.unshift(`${RUNS.toLocaleString('en-US')} runs created through startRun (start: false) in ${createS.toFixed(1)} s; startServer on them took ${startS.toFixed(2)} s; ${ROUNDS} alternating rounds per case`);
  return { bench: BENCH, rows, notes, seconds: (Date.now() - t0) / 1000 };
};
