import test from 'ava';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { repoRoot } from '../helpers/env.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { allows } from '../../lib/sandbox/allowlist.js';
import { openEgress } from '../../lib/sandbox/egress.js';

// The egress proxy on its unix socket, as the sandbox's bridge reaches it: allowed destinations
// pass, the run's own tool server passes for its own path only, the rest is refused with 403 and
// told once per destination.

const listen = async (s: Server): Promise<number> => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
};

const viaProxy = (socket: string, url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, path: url, method: 'GET', headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

const connectVia = (socket: string, target: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const c = connect(socket, () => c.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
    c.once('data', (b: Buffer) => (resolve(b.toString().split('\r\n')[0]!), c.destroy()));
    c.on('error', reject);
  });

test('allowed hosts and the run\'s own tool path pass; others are refused with 403 and told once', async (t) => {
  const seen: string[] = [];
  const upstream = createServer((q, r) => (seen.push(q.url ?? ''), r.end(`upstream ${q.url}`)));
  const allowedPort = await listen(upstream);
  const other = createServer((_q, r) => r.end('other'));
  const otherPort = await listen(other);
  t.teardown(() => (upstream.close(), other.close()));
  const refused: string[] = [];
  const runTools = `http://127.0.0.1:${allowedPort}/run-tools/r1/mcp`;
  // the run tools' origin is not on the list: only its path passes
  const egress = openEgress({ allow: [], runTools }, (d, why) => refused.push(`${d} | ${why}`));
  t.teardown(() => egress.close());

  t.deepEqual(await viaProxy(egress.socket, `${runTools}?x=1`), { status: 200, body: 'upstream /run-tools/r1/mcp?x=1' });
  const api = await viaProxy(egress.socket, `http://127.0.0.1:${allowedPort}/api/runs`);
  t.is(api.status, 403);
  t.true(api.body.includes('reachable for this run\'s tool server only'));
  const otherRun = await viaProxy(egress.socket, `http://127.0.0.1:${allowedPort}/run-tools/r2/mcp`);
  t.is(otherRun.status, 403, 'another run\'s tool server is refused');
  const off = await viaProxy(egress.socket, `http://127.0.0.1:${otherPort}/x`);
  t.is(off.status, 403);
  await viaProxy(egress.socket, `http://127.0.0.1:${otherPort}/x`);
  t.is(await connectVia(egress.socket, `127.0.0.1:${allowedPort}`), 'HTTP/1.1 403 Forbidden', 'no tunnel to svc\'s own server');
  t.deepEqual(seen, ['/run-tools/r1/mcp?x=1'], 'nothing refused reached a server');
  t.deepEqual(refused, [
    `GET http://127.0.0.1:${allowedPort}/api/runs | svc's own server is reachable for this run's tool server only`,
    `GET http://127.0.0.1:${allowedPort}/run-tools/r2/mcp | svc's own server is reachable for this run's tool server only`,
    `GET http://127.0.0.1:${otherPort}/x | not on the allowlist`,
    `CONNECT 127.0.0.1:${allowedPort} | svc's own server is reachable for this run's tool server only`,
  ], 'each destination told once');
});

test('a command step\'s rules: the run\'s own preview passes on svc\'s origin, another run\'s preview and the API do not', async (t) => {
  const seen: string[] = [];
  const svc = createServer((q, r) => (seen.push(q.url ?? ''), r.end(`svc ${q.url}`)));
  const port = await listen(svc);
  t.teardown(() => void svc.close());
  const refused: string[] = [];
  // a command step has no tool server: only the preview's prefix is svc's
  const egress = openEgress({ allow: [], runTools: '', preview: `http://127.0.0.1:${port}/preview/r1/` }, (d, why) => refused.push(`${d} | ${why}`));
  t.teardown(() => egress.close());
  t.deepEqual(await viaProxy(egress.socket, `http://127.0.0.1:${port}/preview/r1/page?x=1`), { status: 200, body: 'svc /preview/r1/page?x=1' });
  t.is((await viaProxy(egress.socket, `http://127.0.0.1:${port}/preview/r2/`)).status, 403);
  t.is((await viaProxy(egress.socket, `http://127.0.0.1:${port}/api/runs`)).status, 403);
  t.is(await connectVia(egress.socket, `127.0.0.1:${port}`), 'HTTP/1.1 403 Forbidden', 'no tunnel to svc\'s own server');
  t.deepEqual(seen, ['/preview/r1/page?x=1']);
  t.deepEqual(refused.map((r) => r.split(' | ')[1]), [
    'svc\'s own server is reachable for this run\'s tool server and preview only',
    'svc\'s own server is reachable for this run\'s tool server and preview only',
    'svc\'s own server is reachable for this run\'s tool server only',
  ]);
});

test('a tunnel to an allowed host:port carries bytes both ways', async (t) => {
  const upstream = createServer((q, r) => r.end(`tunnelled ${q.url}`));
  const port = await listen(upstream);
  t.teardown(() => void upstream.close());
  const egress = openEgress({ allow: [`127.0.0.1:${port}`] }, () => t.fail('nothing is refused'));
  t.teardown(() => egress.close());
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    const c = connect(egress.socket, () => c.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`));
    c.on('data', (b: Buffer) => {
      text += b.toString();
      if (text.startsWith('HTTP/1.1 200') && !text.includes('GET-SENT')) (text += 'GET-SENT'), c.write(`GET /through HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    });
    c.on('end', () => resolve(text));
    c.on('error', reject);
  });
  t.true(answer.startsWith('HTTP/1.1 200 Connection Established'));
  t.true(answer.includes('tunnelled /through'));
});

test('allowlist entries: host means web ports, host:port exact, *.domain subdomains, * anything', (t) => {
  t.true(allows(['registry.npmjs.org'], 'registry.npmjs.org', 443));
  t.false(allows(['registry.npmjs.org'], 'registry.npmjs.org', 22));
  t.true(allows(['127.0.0.1:8080'], '127.0.0.1', 8080));
  t.false(allows(['127.0.0.1:8080'], '127.0.0.1', 8081));
  t.true(allows(['*.pypi.org'], 'files.pypi.org', 443));
  t.false(allows(['*.pypi.org'], 'pypi.org', 443));
  t.false(allows(['*.pypi.org'], 'evilpypi.org', 443));
  t.true(allows(['*'], 'anything.example', 5432));
  t.false(allows([], 'api.anthropic.com', 443));
});

// A CLI inside the sandbox may hang up while the proxy answers it (a refusal, or a 502 for a
// destination that is down). Writing to a socket whose peer is gone is EPIPE; it must end that
// connection, never throw out of svc (seen: an uncaught EPIPE from the refusal's answer).
test('a client that hangs up before its answer ends only its own connection', async (t) => {
  const dead = createServer();
  const closedPort = await listen(dead);
  await new Promise<void>((r) => dead.close(() => r()));
  const egress = openEgress({ allow: [`127.0.0.1:${closedPort}`] }, () => undefined);
  t.teardown(() => egress.close());
  const hangUp = (target: string): Promise<void> => new Promise((resolve) => {
    const c = connect(egress.socket, () => { c.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`); c.destroy(); });
    c.on('close', () => resolve());
    c.on('error', () => resolve());
  });
  for (let round = 0; round < 20; round++) {
    await Promise.all(Array.from({ length: 25 }, (_, i) => hangUp(i % 2 ? 'refused.example:443' : `127.0.0.1:${closedPort}`)));
  }
  t.is(await connectVia(egress.socket, 'refused.example:443'), 'HTTP/1.1 403 Forbidden', 'the proxy still answers');
});

// A stopped step closes its sandbox at once and again when its turn settles: both resolve, the
// socket's folder goes, and an open proxy never keeps the process alive on its own.
test('closing twice is one close; the folder goes', async (t) => {
  const egress = openEgress({ allow: [] }, () => undefined);
  t.true(existsSync(egress.socket));
  await Promise.all([egress.close(), egress.close()]);
  await egress.close();
  t.false(existsSync(dirname(egress.socket)));
});

test('a proxy left open does not keep the process alive', async (t) => {
  const code = "import('./lib/sandbox/egress.ts').then((m) => { m.openEgress({ allow: [] }, () => undefined); console.log('open'); })";
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [exitCode, signal] = await once(child, 'exit') as [number | null, string | null];
  clearTimeout(killer);
  t.is(out.trim(), 'open');
  t.deepEqual([exitCode, signal], [0, null], 'it ended by itself');
});
