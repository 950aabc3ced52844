import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLeft } from 'fp-ts/lib/Either.js';
import { startServer, type RunningServer } from '../lib/cli/serve.js';
import { addBenchProject, BY, prepareHome } from './service-setup.js';
import { now, sleep } from './common.js';

// Workers as other hosts, for the worker benches (docs/workers.md): a bridge with the hub's address
// (10.80.<n>.1) and one network namespace per worker on it (10.80.<n>.<k+2>), each `svc worker join`
// also in a mount namespace where the hub's home is an empty folder, so it makes run folders at the
// hub's paths in a folder of its own. The hub is the real server (engine on) with its nats-server
// listening on the bridge only. Steps run with the stand-in harness (spec/fixtures/harness, set by
// run.ts) on the hub and on the workers alike. Needs root (ip netns, mount); removed at the end.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = process.pid % 250;
const BRIDGE = `svcgb${process.pid}`;
// SVC_BENCH_NET: the first two octets (another range when two benches run at once)
const NET = process.env['SVC_BENCH_NET'] ?? '10.80';
const HUB_IP = `${NET}.${n}.1`;
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

export interface Hosts {
  readonly server: RunningServer;
  readonly projectId: string;
  /** the project's repository (a bench may grow its history) */
  readonly repo: string;
  readonly workers: readonly string[];
  /** runs a run to its end; the step's time on the journal's clock (StepStarted to its end) */
  /** `phases` (a dispatched step): started→dispatched, dispatched→claimed, claimed→result applied, applied→step ended, in ms */
  /** CPU seconds used so far (user and system, with the children each has waited for: git, the harness) */
  cpu(): { hub: number; hubChildren: number; workers: number };
  step(goal: string, on: string): Promise<{ runId: string; stepMs: number; phases: readonly number[] }>;
  close(): Promise<void>;
}

// fields 14-17 of /proc/<pid>/stat: utime, stime, cutime, cstime, in clock ticks (100 a second on Linux)
const cpuOf = (pid: number | 'self', fields: readonly [number, number] = [11, 15]): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return f.slice(...fields).reduce((a, x) => a + Number(x), 0) / 100;
  } catch {
    return 0;
  }
};

const nsOf = (k: number) => `svcg${process.pid}${k}`;

const makeHosts = (count: number): void => {
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${HUB_IP}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  for (let k = 0; k < count; k++) {
    const ns = nsOf(k);
    const host = `svcgh${process.pid}${k}`;
    ip('netns', 'add', ns);
    ip('link', 'add', host, 'type', 'veth', 'peer', 'name', `svcgw${process.pid}${k}`);
    ip('link', 'set', host, 'master', BRIDGE);
    ip('link', 'set', host, 'up');
    ip('link', 'set', `svcgw${process.pid}${k}`, 'netns', ns);
    ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${NET}.${n}.${k + 2}/24`, 'dev', `svcgw${process.pid}${k}`);
    ip('netns', 'exec', ns, 'ip', 'link', 'set', `svcgw${process.pid}${k}`, 'up');
    ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  }
};

const removeHosts = (count: number): void => {
  for (let k = 0; k < count; k++) { try { ip('netns', 'del', nsOf(k)); } catch { /* gone */ } }
  try { ip('link', 'del', BRIDGE); } catch { /* gone */ }
};

const join_ = (k: number, hubHome: string, tmp: string, url: string, token: string, slots: number): ChildProcess => {
  const home = join(tmp, `worker-${k}`);
  const cover = join(tmp, `cover-${k}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(cover, { recursive: true });
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  return spawn('ip', ['netns', 'exec', nsOf(k), 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, '--import', 'tsx', join(root, 'lib', 'cli', 'run.ts'), 'worker', 'join', url, token, '--slots', String(slots)],
  { cwd: root, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: 'ignore', detached: true });
};

const until = async <T>(f: () => T | Promise<T>, ok: (v: T) => boolean, ms: number, what: string): Promise<T> => {
  const end = now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(10);
  }
};

/** a hub with `count` workers of `slots` slots each, all online */
export const startHosts = async (tmp: string, count: number, slots: number): Promise<Hosts> => {
  const home = process.env['SVC_HOME']!;
  const { repo } = prepareHome(home, tmp);
  removeHosts(count);
  makeHosts(count);
  process.env['SVC_NATS_LISTEN'] = `${HUB_IP}:-1`;
  const server = await startServer({ home, port: 0, bind: '127.0.0.1' });
  const projectId = await addBenchProject(server.service, repo);
  // every run of a bench may hold a slot at once: the workers' slots are what is measured
  const capped = await fetch(`${server.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ _tag: 'RunCap', cap: { _tag: 'Chosen', value: 64 } }) });
  if (capped.status !== 200) throw new Error(`run cap not set: ${capped.status}`);
  const children: ChildProcess[] = [];
  const workers: string[] = [];
  for (let k = 0; k < count; k++) {
    const made = await server.service.workers.createToken(`host-${k}`);
    if (isLeft(made) || !made.right.hub) throw new Error(`no token or hub: ${JSON.stringify(made)}`);
    children.push(join_(k, dirname(home), tmp, made.right.hub, made.right.token, slots));
    workers.push(made.right.worker.workerId);
  }
  await until(() => server.service.listWorkers(), (l) => l.workers.filter((w) => w.state === 'online').length === count, 90_000, 'workers online');
  const step = async (goal: string, on: string) => {
    const r = server.service.startRun({ project: projectId, goal, workflow: 'linear', start: false }, BY);
    if (isLeft(r)) throw new Error(JSON.stringify(r.left));
    const runId = r.right.runId;
    if (on !== 'here') { const m = server.service.moveRun(runId, on, BY); if (isLeft(m)) throw new Error(JSON.stringify(m.left)); }
    const s = server.service.core.runs.get(runId)!;
    const c = server.service.control(runId, { action: 'Resume', position: `v${s.seq}` }, BY);
    if (isLeft(c)) throw new Error(JSON.stringify(c.left));
    await until(() => server.service.core.runs.get(runId)!, (x) => x.lifecycle === 'ended', 120_000, `run ${runId} ended`);
    const events = server.service.core.journal.read(`run:${runId}`);
    const at = (type: string) => Date.parse(events.find((e) => e.type === type)?.at ?? '');
    const end = Number.isNaN(at('StepSucceeded')) ? at('StepFailed') : at('StepSucceeded');
    // the dispatch journal's times for this step: started → dispatched → claimed → result applied → ended
    const stepId = (events.find((e) => e.type === 'StepStarted')?.data as { stepId?: string } | undefined)?.stepId;
    const d = server.service.core.journal.read('dispatch').filter((e) => (e.data as { stepId?: string }).stepId === stepId);
    const dAt = (type: string) => Date.parse(d.find((e) => e.type === type)?.at ?? '');
    const phases = d.length ? [dAt('StepDispatched') - at('StepStarted'), dAt('StepClaimed') - dAt('StepDispatched'), dAt('StepResultApplied') - dAt('StepClaimed'), end - dAt('StepResultApplied')] : [];
    return { runId, stepMs: end - at('StepStarted'), phases };
  };
  return {
    server, projectId, repo, workers, step,
    cpu: () => ({ hub: cpuOf('self', [11, 13]), hubChildren: cpuOf('self', [13, 15]), workers: children.reduce((a, c) => a + cpuOf(c.pid!), 0) }),
    close: async () => {
      for (const c of children) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } }
      await server.close();
      removeHosts(count);
    },
  };
};
