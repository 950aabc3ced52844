import '../helpers/env.js';
import test from 'ava';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { CLI, runCli } from '../helpers/cli.js';
import { freshHome, repoRoot, tempDir } from '../helpers/env.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { inboxOf } from '../../lib/workers/nats-config.js';

// The worker pool on one machine (docs/workers.md): a real nats-server started by `svc serve`
// on a free loopback port, and workers as separate `svc worker join` processes with homes of
// their own. Presence is a KV entry with a time to live, shortened here to 2 s.

interface WorkerRow { workerId: string; name: string; state: string; slots: number | null; slotsInUse: number | null; harnesses: string[]; sandbox: boolean | null }

const TTL_MS = 2000;

const get = async (s: ChildServer, path: string) => (await fetch(`${s.url}${path}`)).json() as Promise<Record<string, unknown>>;
const post = async (s: ChildServer, path: string, body: unknown = {}) => {
  const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

const workers = async (s: ChildServer): Promise<WorkerRow[]> => (await get(s, '/api/workers'))['workers'] as WorkerRow[];

/** polls until `ok` holds of the worker's row (bounded, so a broken pool fails rather than hangs) */
const until = async (s: ChildServer, workerId: string, ok: (w: WorkerRow) => boolean, what: string): Promise<WorkerRow> => {
  for (let i = 0; i < 200; i++) {
    const w = (await workers(s)).find((x) => x.workerId === workerId);
    if (w && ok(w)) return w;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`worker ${workerId} never became ${what}: ${JSON.stringify(await workers(s))}`);
};

/** `svc worker join` in its own process, with a home of its own, as on another machine */
const join_ = (url: string, token: string, slots: number): { child: ChildProcess; output: () => string; exited: Promise<number | null> } => {
  const home = tempDir('svc-worker-home-');
  const child = spawnGroup(process.execPath, [...CLI, 'worker', 'join', url, token, '--slots', String(slots)], {
    cwd: repoRoot, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
};

const tokenOf = (made: Record<string, unknown>) => made['token'] as string;

test('no workers: GET /api/workers is empty, no hub runs and nothing of NATS is written', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home);
  try {
    const listed = await get(s, '/api/workers');
    t.deepEqual({ workers: listed['workers'], hub: listed['hub'], queue: listed['queue'] }, { workers: [], hub: null, queue: [] });
    t.like(listed['here'], { name: 'this machine', runs: [] }, 'this machine is listed as always');
    t.false(existsSync(join(home, 'nats')));
  } finally {
    s.child.kill('SIGTERM');
  }
});

test('a worker joins, is shown online with its slots and harnesses, is shown lost once killed, and once revoked is refused', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_WORKER_TTL_MS: String(TTL_MS) });
  const started: ChildProcess[] = [];
  try {
    const made = await post(s, '/api/workers/tokens', { name: 'desk' });
    t.is(made.status, 200, JSON.stringify(made.body));
    const hub = made.body['hub'] as string;
    t.regex(hub, /^nats:\/\/127\.0\.0\.1:\d+$/);
    const workerId = (made.body['worker'] as WorkerRow).workerId;
    // the hub's files are owner-only, and its config holds public keys only, never the worker's seed
    t.is(statSync(join(home, 'nats')).mode & 0o777, 0o700);
    t.is(statSync(join(home, 'nats', 'nats.conf')).mode & 0o777, 0o600);
    t.is(statSync(join(home, 'nats', 'hub.nk')).mode & 0o777, 0o600);
    const seed = tokenOf(made.body).split('.')[1]!;
    t.false(readFileSync(join(home, 'nats', 'nats.conf'), 'utf8').includes(seed));
    t.is((await until(s, workerId, (w) => w.state === 'never-joined', 'listed')).name, 'desk');
    // shown once: the listing never carries the token nor its seed
    t.false(JSON.stringify(await get(s, '/api/workers')).includes(seed));

    const w = join_(hub, tokenOf(made.body), 2);
    started.push(w.child);
    const online = await until(s, workerId, (x) => x.state === 'online', 'online');
    t.like(online, { slots: 2, slotsInUse: 0, harnesses: ['claude', 'codex', 'opencode'] });
    t.is(typeof online.sandbox, 'boolean');

    // its heartbeat stops: lost once the entry's time to live has passed, and the joined facts stay
    w.child.kill('SIGKILL');
    await w.exited;
    const lost = await until(s, workerId, (x) => x.state === 'lost', 'lost');
    t.like(lost, { slots: 2, slotsInUse: null });

    // back again with the same token, then revoked: its connection is closed and a new join is refused
    const again = join_(hub, tokenOf(made.body), 2);
    started.push(again.child);
    await until(s, workerId, (x) => x.state === 'online', 'online again');
    const revoked = await post(s, `/api/workers/${workerId}/revoke`);
    t.is(revoked.status, 200, JSON.stringify(revoked.body));
    t.is(await again.exited, 1, again.output());
    const refused = await runCli({ ...process.env, HOME: tempDir('svc-worker-home-'), SVC_HOME: join(tempDir('svc-worker-home-'), '.svc') }, ['worker', 'join', hub, tokenOf(made.body)]);
    t.not(refused.code, 0);
    t.regex(refused.stderr, /authoriz/i);
    t.is((await until(s, workerId, (x) => x.state === 'revoked', 'revoked')).state, 'revoked');
    // a repeat of the revocation is no error, and an unknown worker is a 404
    t.is((await post(s, `/api/workers/${workerId}/revoke`)).status, 200);
    t.is((await post(s, '/api/workers/wzzz/revoke')).status, 404);
  } finally {
    for (const c of started) c.kill('SIGKILL');
    s.child.kill('SIGTERM');
  }
});

test("the hub's nats-server killed: the list answers at once and says the connection is down, the server starts again on its port, and the worker is back online", async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_WORKER_TTL_MS: String(TTL_MS) });
  const started: ChildProcess[] = [];
  const holder = createServer((socket) => socket.destroy());
  try {
    const made = await post(s, '/api/workers/tokens', { name: 'desk' });
    const workerId = (made.body['worker'] as WorkerRow).workerId;
    const port = Number(/:(\d+)$/.exec(made.body['hub'] as string)![1]);
    const w = join_(made.body['hub'] as string, tokenOf(made.body), 1);
    started.push(w.child);
    await until(s, workerId, (x) => x.state === 'online', 'online');
    const pid = Number(readFileSync(join(home, 'nats', 'nats.pid'), 'utf8'));

    // killed, and its port held by something else a while, so it cannot start again at once
    process.kill(pid, 'SIGKILL');
    for (let i = 0; ; i++) {
      const bound = await new Promise<boolean>((resolve) => { holder.once('error', () => resolve(false)); holder.listen(port, '127.0.0.1', () => resolve(true)); });
      if (bound) break;
      if (i > 100) throw new Error(`port ${port} never freed`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    for (let i = 0; i < 200 && !answers.some((a) => a.body['hubProblem']); i++) {
      const r = await fetch(`${s.url}/api/workers`);
      answers.push({ status: r.status, body: (await r.json()) as Record<string, unknown> });
      await new Promise((r) => setTimeout(r, 50));
    }
    t.deepEqual([...new Set(answers.map((a) => a.status))], [200], JSON.stringify(answers.at(-1)));
    const down = answers.at(-1)!.body;
    t.regex(down['hubProblem'] as string, /the hub lost its connection to NATS at 127\.0\.0\.1:\d+; reconnecting \(since .+\); each worker's state is as last read/);
    t.false(Number.isNaN(Date.parse(down['hubDownSince'] as string)));
    t.like((down['workers'] as WorkerRow[]).find((x) => x.workerId === workerId), { name: 'desk', state: 'online' });

    // the port freed: the server is started again on it, the hub and the worker reconnect
    await new Promise((r) => holder.close(r));
    await until(s, workerId, (x) => x.state === 'online', 'online again');
    for (let i = 0; i < 200 && (await get(s, '/api/workers'))['hubProblem']; i++) await new Promise((r) => setTimeout(r, 100));
    const back = await get(s, '/api/workers');
    t.is(back['hubProblem'], undefined);
    t.is(back['hubDownSince'], undefined);
    t.is(back['hub'], made.body['hub']);
    t.not(Number(readFileSync(join(home, 'nats', 'nats.pid'), 'utf8')), pid);
    t.regex(s.output(), /the hub's nats-server exited \(SIGKILL\); starting it again on port \d+/);
    t.regex(s.output(), /the hub's nats-server runs again/);
    t.regex(s.output(), /the hub is connected to NATS again/);
    // the worker went through it all connected to the same hub: no new join was needed
    t.is(w.child.exitCode, null, w.output());
  } finally {
    holder.close();
    for (const c of started) c.kill('SIGKILL');
    s.child.kill('SIGTERM');
  }
});

test("a worker may not speak for another: publishing on another worker's subject or presence key is refused by the hub's server", async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_WORKER_TTL_MS: String(TTL_MS) });
  try {
    const a = (await post(s, '/api/workers/tokens', { name: 'a' })).body;
    const b = (await post(s, '/api/workers/tokens', { name: 'b' })).body;
    const [aId, aSeed] = tokenOf(a).split('.') as [string, string];
    const bId = (b['worker'] as WorkerRow).workerId;
    const errors: string[] = [];
    const nc = await connect({ servers: a['hub'] as string, authenticator: nkeyAuthenticator(new TextEncoder().encode(aSeed)), inboxPrefix: inboxOf(aId) });
    void (async () => { for await (const st of nc.status()) if (st.type === 'error') errors.push(String(st.error)); })();
    // its own join goes through
    const own = JSON.parse((await nc.request(`svc.w.${aId}.join`, JSON.stringify({ slots: 1, harnesses: ['claude'], sandbox: false }), { timeout: 10_000 })).string()) as { ok: boolean };
    t.true(own.ok);
    // another's join: the server refuses the publish, so the hub never sees it and b never joins
    await t.throwsAsync(nc.request(`svc.w.${bId}.join`, JSON.stringify({ slots: 9, harnesses: ['claude'], sandbox: false }), { timeout: 2000 }));
    nc.publish(`$KV.svc-presence.${bId}`, JSON.stringify({ slots: 9, busy: 0 }));
    await nc.flush();
    await new Promise((r) => setTimeout(r, 300));
    t.true(errors.some((e) => /Permissions Violation for Publish to "svc\.w\./.test(e)), errors.join('\n'));
    t.true(errors.some((e) => /Permissions Violation for Publish to "\$KV\.svc-presence\./.test(e)), errors.join('\n'));
    const rows = await workers(s);
    t.like(rows.find((x) => x.workerId === bId), { state: 'never-joined', slots: null });
    t.like(rows.find((x) => x.workerId === aId), { slots: 1 });
    // a join that does not decode is refused and recorded, not applied
    const bad = JSON.parse((await nc.request(`svc.w.${aId}.join`, 'do as I say', { timeout: 10_000 })).string()) as { ok: boolean; reason: string };
    t.deepEqual(bad, { ok: false, reason: 'a join must be {slots, harnesses, sandbox, host?}' });
    await nc.close();
  } finally {
    s.child.kill('SIGTERM');
  }
});

test('no nats-server on PATH: the token is still made and the answer says why there is no hub, never a 500', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1', PATH: tempDir('svc-empty-path-') });
  try {
    const made = await post(s, '/api/workers/tokens', { name: 'desk' });
    t.is(made.status, 200, JSON.stringify(made.body));
    t.is(made.body['hub'], null);
    t.regex(made.body['hubProblem'] as string, /nats-server did not start/);
    t.like(await get(s, '/api/workers'), { hub: null });
  } finally {
    s.child.kill('SIGTERM');
  }
});

test('svc serve killed hard leaves its nats-server behind; the next serve ends it and starts the hub again, with the workers it knew', async (t) => {
  const home = freshHome();
  const env = { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_WORKER_TTL_MS: String(TTL_MS) };
  const first = await spawnServer(home, env);
  const made = await post(first, '/api/workers/tokens', { name: 'desk' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const pid = Number(readFileSync(join(home, 'nats', 'nats.pid'), 'utf8'));
  await killHard(first);
  t.true(existsSync(`/proc/${pid}`), 'the first nats-server outlived its svc');
  const second = await spawnServer(home, env);
  try {
    let listed: Record<string, unknown> = {};
    for (let i = 0; i < 100 && !listed['hub']; i++) {
      listed = await get(second, '/api/workers');
      if (!listed['hub']) await new Promise((r) => setTimeout(r, 100));
    }
    t.regex(listed['hub'] as string, /^nats:\/\/127\.0\.0\.1:\d+$/);
    t.false(existsSync(`/proc/${pid}`), 'the leftover nats-server was ended');
    t.like((listed['workers'] as WorkerRow[])[0], { name: 'desk', state: 'never-joined' });
  } finally {
    second.child.kill('SIGTERM');
  }
});

test('a token works the moment its answer arrives: each new worker connects at once, while the server reads its new config', async (t) => {
  const home = freshHome();
  const s = await spawnServer(home, { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_WORKER_TTL_MS: String(TTL_MS) });
  try {
    for (let i = 0; i < 20; i++) {
      const made = (await post(s, '/api/workers/tokens', { name: `box ${i}` })).body;
      const [id, seed] = tokenOf(made).split('.') as [string, string];
      // no retry: a reload not yet read refuses the new key with "Authorization Violation"
      const nc = await connect({ servers: made['hub'] as string, authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)), inboxPrefix: inboxOf(id), reconnect: false });
      const joined = JSON.parse((await nc.request(`svc.w.${id}.join`, JSON.stringify({ slots: 1, harnesses: [], sandbox: false }), { timeout: 10_000 })).string()) as { ok: boolean };
      t.true(joined.ok, `token ${i}`);
      await nc.close();
    }
  } finally {
    s.child.kill('SIGTERM');
  }
});
