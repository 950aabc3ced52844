import '../helpers/env.js';
import test from 'ava';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { CLI } from '../helpers/cli.js';
import { freshHome, repoRoot, tempDir } from '../helpers/env.js';
import { spawnServer, type ChildServer } from '../helpers/child-server.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { connectToHub } from '../../lib/workers/hub-connect.js';
import { parseJoinUrl } from '../../lib/workers/hub-tls.js';
import { inboxOf } from '../../lib/workers/nats-config.js';

// Connections are TLS when the hub listens beyond loopback (docs/workers.md, Security): the hub's
// own certificate, pinned by the fingerprint in the join line. The hub listens on an address of a
// veth pair of this machine (not loopback), as it would on a LAN or VPN address; the worker
// is `svc worker join` with a home of its own.

const IF = `svct${process.pid % 100000}`;
const PEER = `svcu${process.pid % 100000}`;
const IP = `10.81.${process.pid % 250}.1`;
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

test.before(() => {
  ip('link', 'add', IF, 'type', 'veth', 'peer', 'name', PEER);
  ip('addr', 'add', `${IP}/32`, 'dev', IF);
  ip('link', 'set', IF, 'up');
  ip('link', 'set', PEER, 'up');
});
test.after.always(() => { try { ip('link', 'del', IF); } catch { /* gone */ } });

const post = async (s: ChildServer, path: string, body: unknown) =>
  (await (await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<string, any>;
const workers = async (s: ChildServer) => ((await (await fetch(`${s.url}/api/workers`)).json()) as { workers: { workerId: string; state: string }[] }).workers;

const joinProcess = (url: string, token: string) => {
  const home = tempDir('svc-worker-home-');
  const child: ChildProcess = spawnGroup(process.execPath, [...CLI, 'worker', 'join', url, token], {
    cwd: repoRoot, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { child, output: () => out, exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))) };
};

const sha256 = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');

test('beyond loopback the hub speaks only TLS with its own certificate, pinned by the join line; a wrong pin or plain text is refused', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: `${IP}:-1` });
  const started: ChildProcess[] = [];
  t.teardown(() => { for (const c of started) c.kill('SIGKILL'); s.child.kill('SIGTERM'); });
  const made = await post(s, '/api/workers/tokens', { name: 'laptop' });
  const hub = made['hub'] as string;
  const token = made['token'] as string;
  const workerId = token.split('.')[0]!;

  // the certificate: owner-only, the one the join line names, and the server's config requires it
  const certFile = join(home, 'nats', 'tls', 'cert.pem');
  const pem = readFileSync(certFile, 'utf8');
  t.is(statSync(join(home, 'nats', 'tls')).mode & 0o777, 0o700);
  t.is(statSync(certFile).mode & 0o777, 0o600);
  t.is(statSync(join(home, 'nats', 'tls', 'key.pem')).mode & 0o777, 0o600);
  t.regex(hub, new RegExp(`^tls://${IP.replaceAll('.', '\\.')}:\\d+#sha256=${sha256(pem)}$`));
  t.regex(readFileSync(join(home, 'nats', 'nats.conf'), 'utf8'), /tls \{ cert_file: .*cert\.pem.*key_file: .*key\.pem/);

  // `svc worker join` with the line as given: online
  const worker = joinProcess(hub, token);
  started.push(worker.child);
  for (let i = 0; i < 300 && !(await workers(s)).some((w) => w.workerId === workerId && w.state === 'online'); i++) await new Promise((r) => setTimeout(r, 100));
  t.true((await workers(s)).some((w) => w.workerId === workerId && w.state === 'online'), worker.output());

  const at = parseJoinUrl(hub);
  if (typeof at === 'string') return t.fail(at);
  const authenticator = nkeyAuthenticator(new TextEncoder().encode(token.slice(workerId.length + 1)));
  // plain text with the worker's own key: the server will not have it
  const plain = await t.throwsAsync(connect({ servers: `${at.host}:${at.port}`, authenticator, inboxPrefix: inboxOf(workerId), tls: null, reconnect: false }));
  t.regex(String(plain?.message), /tls/i);
  // TLS trusting the usual authorities: the hub's own certificate is not one of theirs
  await t.throwsAsync(connect({ servers: `${at.host}:${at.port}`, authenticator, inboxPrefix: inboxOf(workerId), reconnect: false }));
  // a join line naming another certificate: refused before the key signs anything
  const wrong = hub.replace(/sha256=[0-9a-f]{64}/, `sha256=${'0'.repeat(64)}`);
  const refused = await t.throwsAsync(connectToHub(wrong, { authenticator, inboxPrefix: inboxOf(workerId), reconnect: false }));
  t.regex(String(refused?.message), /not the one the join line names/);
  const cli = joinProcess(wrong, token);
  started.push(cli.child);
  t.not(await cli.exited, 0);
  t.regex(cli.output(), /not the one the join line names/);
  // a nats:// address at a TLS hub: told to use the line as printed
  const noPin = await t.throwsAsync(connectToHub(`nats://${at.host}:${at.port}`, { authenticator, reconnect: false }));
  t.regex(String(noPin?.message), /requires TLS/);
});

test('on loopback nothing changes: no certificate, a nats:// join address', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1' });
  t.teardown(() => s.child.kill('SIGTERM'));
  const made = await post(s, '/api/workers/tokens', { name: 'same box' });
  t.regex(made['hub'] as string, /^nats:\/\/127\.0\.0\.1:\d+$/);
  t.notRegex(readFileSync(join(home, 'nats', 'nats.conf'), 'utf8'), /tls/);
});

const badUrls: [string, RegExp][] = [
  ['', /looks like/],
  ['http://10.0.0.1:4222', /looks like/],
  ['tls://10.0.0.1:4222', /fingerprint/],
  ['tls://10.0.0.1:4222#sha256=abc', /looks like/],
  ['nats://10.0.0.1', /looks like/],
  ['nats://10.0.0.1:4222; rm -rf /', /looks like/],
];
for (const [raw, why] of badUrls) {
  test(`a join address ${JSON.stringify(raw)} is refused with a reason`, (t) => {
    const r = parseJoinUrl(raw);
    t.is(typeof r, 'string');
    t.regex(r as string, why);
  });
}

test('a good join address reads as host, port and pin', (t) => {
  t.deepEqual(parseJoinUrl(`tls://hub.lan:4222#sha256=${'a'.repeat(64)}`), { host: 'hub.lan', port: 4222, pin: 'a'.repeat(64) });
  t.deepEqual(parseJoinUrl('nats://127.0.0.1:4222'), { host: '127.0.0.1', port: 4222 });
});
