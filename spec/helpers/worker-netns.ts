import type { ExecutionContext } from 'ava';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { CLI } from './cli.js';
import { eventually, repoRoot, tempDir } from './env.js';
import { spawnGroup } from './process-groups.js';
import { realCliEnv } from './real-run.js';
import type { TestServer } from './server.js';
import type { HarnessName } from '../../domain/workflow.js';

// Worker machines for the workers specs: each a network namespace of its own (a veth pair, its own
// address, a default route to the hub's side) and a mount namespace where the hub's home is an
// empty folder, so a worker cannot read the hub's files. One /30 per worker in 10.<second>.<pid>.x
// (each spec file its own second octet); the hub listens on the first worker's hub-side address,
// which every worker reaches through its default route.

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

export interface Machine {
  readonly ns: string;
  readonly ip: string;
  readonly hostIp: string;
}

export interface Machines {
  readonly hubIp: string;
  readonly machines: readonly Machine[];
  cleanup(): void;
}

/** `count` worker machines named `<prefix><pid><i>` */
export const makeMachines = (prefix: string, second: number, count: number): Machines => {
  const n = process.pid % 250;
  const machines = Array.from({ length: count }, (_, i) => ({ ns: `${prefix}${process.pid}${i}`, link: `${prefix}${process.pid % 100000}${i}`, hostIp: `10.${second}.${n}.${4 * i + 1}`, ip: `10.${second}.${n}.${4 * i + 2}` }));
  const cleanup = () => {
    for (const m of machines) {
      try { ip('netns', 'del', m.ns); } catch { /* gone */ }
      try { ip('link', 'del', `${m.link}h`); } catch { /* went with the namespace */ }
    }
  };
  cleanup();
  for (const m of machines) {
    ip('netns', 'add', m.ns);
    ip('link', 'add', `${m.link}h`, 'type', 'veth', 'peer', 'name', `${m.link}w`);
    ip('link', 'set', `${m.link}w`, 'netns', m.ns);
    ip('addr', 'add', `${m.hostIp}/30`, 'dev', `${m.link}h`);
    ip('link', 'set', `${m.link}h`, 'up');
    const inNs = (...args: string[]) => ip('netns', 'exec', m.ns, 'ip', ...args);
    inNs('addr', 'add', `${m.ip}/30`, 'dev', `${m.link}w`);
    inNs('link', 'set', `${m.link}w`, 'up');
    inNs('link', 'set', 'lo', 'up');
    inNs('route', 'add', 'default', 'via', m.hostIp);
  }
  return { hubIp: machines[0]!.hostIp, machines: machines.map(({ ns, ip: address, hostIp }) => ({ ns, ip: address, hostIp })), cleanup };
};

export interface RunningWorker {
  readonly child: ChildProcess;
  /** the folder standing in for the hub's home inside the worker's mount namespace */
  readonly cover: string;
  readonly home: string;
  output(): string;
  /** every process in its namespace, killed hard (the machine dies) */
  killAll(): void;
  /** every process in its namespace stopped (SIGSTOP) or continued: its heartbeat stops and comes back */
  signalAll(signal: 'STOP' | 'CONT' | 'KILL'): void;
}

/** `svc worker join` in the machine's namespaces, its own HOME, the hub's home hidden */
export const startWorker = (m: Machine, hubIp: string, hubHome: string, url: string, token: string, modelUrl: string, slots = 1, harness: HarnessName = 'claude'): RunningWorker => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const cli = realCliEnv(harness);
  const env = {
    ...process.env, ...cli.env, HOME: home, SVC_HOME: join(home, '.svc'),
    ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'sk-test', NO_PROXY: `127.0.0.1,localhost,${hubIp}`,
  };
  delete (env as Record<string, string | undefined>)['CLAUDE_CONFIG_DIR'];
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child: ChildProcess = spawnGroup('ip', ['netns', 'exec', m.ns, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token, '--slots', String(slots)], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const signalAll = (signal: 'STOP' | 'CONT' | 'KILL') => {
    const pids = execFileSync('ip', ['netns', 'pids', m.ns]).toString().split(/\s+/).filter(Boolean);
    if (pids.length > 0) execFileSync('kill', [`-${signal}`, ...pids], { stdio: 'ignore' });
  };
  return { child, cover, home, output: () => out, killAll: () => signalAll('KILL'), signalAll };
};

export interface JoinedWorkers {
  readonly workers: RunningWorker[];
  /** each worker's id, in the machines' order */
  readonly ids: string[];
  /** every worker's output, for a failure's message */
  output(): string;
}

/**
 * a join token per machine (named `names[i]`, else the namespace's name) and `svc worker join` on each,
 * killed when the test ends; resolves once the hub shows every one online
 */
export const joinWorkers = async (
  t: ExecutionContext, net: Machines, s: TestServer, modelUrl: string, o: { readonly slots?: number; readonly names?: readonly string[] } = {},
): Promise<JoinedWorkers> => {
  const workers: RunningWorker[] = [];
  const ids: string[] = [];
  for (const [i, m] of net.machines.entries()) {
    const made = await s.post('/api/workers/tokens', { name: o.names?.[i] ?? m.ns });
    t.is(made.status, 200, JSON.stringify(made.body));
    const { token, hub } = made.body as { token: string; hub: string };
    ids.push(token.split('.')[0]!);
    workers.push(startWorker(m, net.hubIp, dirname(s.home), hub, token, modelUrl, o.slots ?? 1));
  }
  t.teardown(() => { for (const w of workers) try { w.signalAll('CONT'); w.killAll(); } catch { /* gone */ } });
  const output = () => workers.map((w, i) => `--- worker ${ids[i]} ---\n${w.output()}`).join('\n');
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.filter((w: { state: string }) => w.state === 'online').length === workers.length, 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n${output()}`); });
  return { workers, ids, output };
};

/**
 * `svc worker join` on this machine's loopback, in a mount namespace of its own where the hub's home
 * is an empty folder (it makes the run folder at the hub's path), with its own HOME
 */
export const startLoopbackWorker = (hubHome: string, url: string, token: string): { readonly cover: string; output(): string } => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child = spawnGroup('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token], { cwd: repoRoot, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { cover, output: () => out };
};
