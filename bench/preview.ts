import { Agent, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../lib/cli/serve.js';
import { benchTmp, gitRepo, now, percentile, removeDir, row, sleep, type BenchResult } from './common.js';

// What svc's preview proxy (/preview/<runId>/, lib/http/preview-proxy.ts) adds to a request: the
// same small page fetched from the dev server's port directly and through svc's real server, one
// request at a time on a keep-alive agent each, rounds alternating. The budget: < 2 ms at p50.

const BENCH = 'preview';
const ROUNDS = 40;
const PER_ROUND = 25;

const APP = `require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<p>' + req.url + '</p>'.repeat(40)); })
  .listen(Number(process.env.PORT), '127.0.0.1');`;
const GATE = 'digraph gate { start [kind=start]  review [kind=gate]  done [kind=exit]  start -> review -> done }';

const get = (agent: Agent, port: number, path: string): Promise<void> => new Promise((resolve, reject) => {
  request({ host: '127.0.0.1', port, path, agent }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode} on ${path}`))));
  }).on('error', reject).end();
});

const call = async (url: string, method: string, body?: unknown): Promise<any> => {
  const r = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const b = await r.json();
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(b)}`);
  return b;
};

const until = async (f: () => Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 600; i++) { if (await f()) return; await sleep(100); }
  throw new Error(`${what}: not within 60 s`);
};

/** a run at its gate with its preview answering: the dev server's port and svc's */
const previewUp = async (url: string, repo: string, sandbox: 'off' | 'preferred'): Promise<{ direct: number; path: string }> => {
  const project = await call(`${url}/api/projects`, 'POST', { name: `bench-${sandbox}`, folders: [{ path: repo }] });
  await call(`${url}/api/projects/${project.id}`, 'PATCH', { preview: { argv: [process.execPath, 'app.cjs'] }, sandbox });
  const { runId } = await call(`${url}/api/runs`, 'POST', { project: project.id, goal: 'preview', workflow: 'gate' });
  await until(async () => (await call(`${url}/api/runs/${runId}`, 'GET')).phase === 'AtGate', 'the run at its gate');
  await call(`${url}/api/runs/${runId}/preview`, 'POST', {});
  let view: any;
  await until(async () => (view = await call(`${url}/api/runs/${runId}/preview`, 'GET')).state === 'running', 'the preview answering');
  return { direct: view.port as number, path: view.path as string };
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const dir = benchTmp(BENCH);
  const [repo, repo2] = ['repo', 'repo2'].map((name) => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'app.cjs'), APP); // committed: the run's worktree is a checkout
    return gitRepo(join(dir, name));
  });
  const home = join(dir, 'home', '.svc');
  mkdirSync(join(home, 'workflows'), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'workflows', 'gate.dot'), GATE);
  const s = await startServer({ home, port: 0, bind: '127.0.0.1' });
  try {
    // outside the sandbox the dev server's port is reachable, so the proxy's own cost can be measured
    const { direct, path } = await previewUp(s.url, repo!, 'off');
    // in it, svc goes through the lifeline's unix socket bridge (docs/preview.md)
    const boxed = await previewUp(s.url, repo2!, 'preferred');
    const svcPort = Number(new URL(s.url).port);
    const [a, b, c] = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
    const plain: number[] = [];
    const proxied: number[] = [];
    const bridged: number[] = [];
    const time = async (xs: number[], f: () => Promise<void>) => { const t0 = now(); await f(); xs.push(now() - t0); };
    for (let i = 0; i < 5; i++) { await get(a, direct, '/warm'); await get(b, svcPort, `${path}warm`); }
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < PER_ROUND; i++) await time(plain, () => get(a, direct, `/page?i=${i}`));
      for (let i = 0; i < PER_ROUND; i++) await time(proxied, () => get(b, svcPort, `${path}page?i=${i}`));
      for (let i = 0; i < PER_ROUND; i++) await time(bridged, () => get(c, svcPort, `${boxed.path}page?i=${i}`));
    }
    a.destroy(); b.destroy(); c.destroy();
    const [p50d, p50p, p95d, p95p] = [percentile(plain, 50), percentile(proxied, 50), percentile(plain, 95), percentile(proxied, 95)];
    const rows = [
      row({ bench: BENCH, measure: `GET through svc's proxy, p50 of ${proxied.length}`, measured: p50p, baseline: p50d, unit: 'ms', baselineLabel: 'the dev server direct, p50' }),
      row({ bench: BENCH, measure: 'added by the proxy at p50 (proxied - direct)', measured: p50p - p50d, baseline: 2, unit: 'ms', baselineLabel: "the issue's budget", target: { op: '<', value: 1 } }),
      row({ bench: BENCH, measure: `GET through svc's proxy, p95`, measured: p95p, baseline: p95d, unit: 'ms', baselineLabel: 'the dev server direct, p95' }),
      row({ bench: BENCH, measure: "GET of a sandboxed preview (proxy + the sandbox's socket bridge), p50", measured: percentile(bridged, 50), baseline: p50d, unit: 'ms', baselineLabel: 'the dev server direct, p50' }),
    ];
    return { bench: BENCH, rows, notes: [`${ROUNDS} rounds of ${PER_ROUND} sequential GETs each way, alternating, keep-alive; the direct/proxied pair with the project's sandbox off`], seconds: (now() - started) / 1000 };
  } finally {
    await s.close();
    removeDir(dir);
  }
};
