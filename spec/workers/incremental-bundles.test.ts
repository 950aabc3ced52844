import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { growHistory } from '../helpers/big-history.js';
import { CLI } from '../helpers/cli.js';
import { eventually, gitRepo, repoRoot, tempDir } from '../helpers/env.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { untilStanding } from '../helpers/steer.js';
import { makeMachines } from '../helpers/worker-netns.js';

// Incremental bundles (docs/workers.md, "What moves") end to end: a project with 300 commits of
// generated files (about 6 MB), a hub whose nats-server listens on a veth, and a worker in a network
// namespace of its own (and a mount namespace where the hub's home is an empty folder) running the
// stand-in harness. A run of two agent steps there: the first step's dispatch bundle is whole (the
// worker's cache is empty), the second's and every result bundle are a small fraction of it (the
// sizes the hub writes in the run's log); the run's branch and folder are those of the same run
// made here. A run whose worker lost its cache's objects during its first step still succeeds:
// the small bundle does not verify there, and the worker asks for the whole one. Once the project
// has an origin the worker can reach (a bare repository at a path the worker's namespace sees), a
// second worker, its cache empty, fetches the base from there and gets only what the origin lacks.

const TWO_STEPS = `digraph twostep {
  start  [kind=start]
  first  [kind=agent, prompt="[write:first.txt=one]{{goal}}"]
  second [kind=agent, prompt="[write:second.txt=two]{{goal}}"]
  done   [kind=exit]
  start -> first -> second -> done
}`;

const machines = makeMachines('svcib', 81, 2);
test.after.always(() => machines.cleanup());

const startWorker = (machine: number, hubHome: string, url: string, token: string) => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child = spawnGroup('ip', ['netns', 'exec', machines.machines[machine]!.ns, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token], { cwd: repoRoot, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { home, cover, output: () => out, stop: () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } } };
};

// the files of a folder (not .git, not the stand-in's own turn log, which names the steps), path to content
const filesOf = (dir: string, under = ''): Record<string, string> => Object.fromEntries(readdirSync(join(dir, under), { withFileTypes: true })
  .filter((e) => e.name !== '.git' && e.name !== '.turns.log')
  .flatMap((e) => (e.isDirectory() ? Object.entries(filesOf(dir, join(under, e.name))) : [[join(under, e.name), readFileSync(join(dir, under, e.name), 'utf8')]])));

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' }).toString().trim();

// what the hub logged of each bundle: `whole` or `thin`, its bytes, in order
const bundlesOf = async (s: TestServer, runId: string) => {
  const lines = ((await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines as { text: string }[]).map((l) => l.text);
  const sent = lines.flatMap((l) => {
    const m = /the step's code goes to worker \S+ as (a whole bundle|a bundle) of (\d+) bytes/.exec(l);
    return m ? [{ whole: m[1] === 'a whole bundle', bytes: Number(m[2]) }] : [];
  });
  const back = lines.flatMap((l) => { const m = /the worker's work came back as a bundle of (\d+) bytes/.exec(l); return m ? [Number(m[1])] : []; });
  return { sent, back };
};

test('with 300 commits, a worker gets the whole history once: later dispatch bundles and every result are small, the work is the same as here; a lost cache falls back to the whole bundle; an empty cache fetches the base from the project\'s origin', async (t) => {
  t.timeout(300_000);
  process.env['SVC_NATS_LISTEN'] = `${machines.hubIp}:-1`;
  const repo = gitRepo({ 'README.md': '# big\n' });
  growHistory(repo, 300, 20_000);
  const s = await testServer({ repo, workflows: { twostep: TWO_STEPS } });
  t.teardown(() => s.close());
  const made = await s.post('/api/workers/tokens', { name: 'desk' });
  const { token, hub } = made.body as { token: string; hub: string };
  const workerId = token.split('.')[0]!;
  const worker = startWorker(0, dirname(s.home), hub, token);
  t.teardown(() => worker.stop());
  const fail = (e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); };
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000).catch(fail);
  const runOn = async (to: string) => t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: to }))).status, 200);
  const run = async (goal: string) => (await s.post('/api/runs', { project: s.projectId, goal, workflow: 'twostep' })).body.runId as string;
  const folder = (runId: string) => worktreeDir(s.home, runId, basename(s.repo));

  await runOn(workerId);
  const remote = await run('[report:success]');
  await untilStanding(s, remote, 'Succeeded', 120_000).catch(fail);
  const a = await bundlesOf(s, remote);
  t.log(`run on the worker: dispatch bundles ${a.sent.map((x) => `${x.bytes}${x.whole ? ' (whole)' : ''}`).join(', ')}; results ${a.back.join(', ')} bytes`);
  t.is(a.sent.length, 2, 'one dispatch bundle per step');
  t.true(a.sent[0]!.whole && a.sent[0]!.bytes > 3_000_000, 'the first step\'s bundle holds the whole history (the worker had nothing of it)');
  t.false(a.sent[1]!.whole);
  t.true(a.sent[1]!.bytes * 100 < a.sent[0]!.bytes, 'the second step\'s bundle holds only what is new');
  t.is(a.back.length, 2);
  for (const r of a.back) t.true(r * 100 < a.sent[0]!.bytes, 'a result bundle holds only what is new');

  await runOn('here');
  const local = await run('[report:success]');
  await untilStanding(s, local, 'Succeeded', 120_000);
  t.deepEqual(filesOf(folder(remote)), filesOf(folder(local)), 'the run folder is the one the same run makes here');
  t.true(existsSync(join(folder(remote), 'second.txt')));
  t.is(git(folder(remote), 'rev-parse', `svc/${remote}^{tree}`), git(folder(local), 'rev-parse', `svc/${local}^{tree}`), 'the branch is the same');
  t.is(git(s.repo, 'rev-parse', `svc/${remote}`), git(s.repo, 'rev-parse', `svc/${local}`));

  // the worker's cache loses its objects while the first step runs (its tips stay): that step's
  // result cannot go into it, the second step's small bundle does not verify there, the whole one comes
  await runOn(workerId);
  const lost = await run('[until:go][report:success]');
  const there = join(worker.cover, folder(lost).slice(dirname(s.home).length));
  // the turn has started there (the stand-in's turn log): the folder is made
  await eventually(() => existsSync(join(there, '.turns.log')), (x) => x, 60_000).catch(fail);
  const caches = join(worker.home, '.svc', 'worker', 'objects');
  const [cache] = readdirSync(caches);
  t.truthy(cache, 'the worker keeps a cache for the project\'s history');
  for (const dir of [caches, join(caches, cache!)]) t.is(statSync(dir).mode & 0o077, 0, `${dir} is owner-only`);
  rmSync(join(caches, cache!, 'objects'), { recursive: true, force: true });
  mkdirSync(join(caches, cache!, 'objects'));
  writeFileSync(join(there, 'go'), '');
  await untilStanding(s, lost, 'Succeeded', 120_000).catch(fail);
  const b = await bundlesOf(s, lost);
  t.log(`run whose cache lost its objects: dispatch bundles ${b.sent.map((x) => `${x.bytes}${x.whole ? ' (whole)' : ''}`).join(', ')}`);
  t.deepEqual(b.sent.map((x) => x.whole), [false, false, true], 'the first step small (the cache had the history), the second small then whole');
  t.true(existsSync(join(folder(lost), 'second.txt')));

  // the project gets an origin the second machine can reach; its worker starts with an empty cache
  const origin = join(tempDir('svc-origin-'), 'origin.git');
  git(s.repo, 'clone', '-q', '--bare', s.repo, origin);
  git(s.repo, 'remote', 'add', 'origin', origin);
  const second = (await s.post('/api/workers/tokens', { name: 'second' })).body as { token: string; hub: string };
  const secondId = second.token.split('.')[0]!;
  const other = startWorker(1, dirname(s.home), second.hub, second.token);
  t.teardown(() => other.stop());
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === secondId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- second worker ---\n${other.output()}`); });
  await runOn(secondId);
  const fromOrigin = await run('[report:success]');
  await untilStanding(s, fromOrigin, 'Succeeded', 120_000).catch((e: Error) => { throw new Error(`${e.message}\n--- second worker ---\n${other.output()}`); });
  const c = await bundlesOf(s, fromOrigin);
  const whole = b.sent[2]!.bytes;
  t.log(`run on a worker with an empty cache, the base from the origin: dispatch bundles ${c.sent.map((x) => x.bytes).join(', ')}`);
  t.deepEqual(c.sent.map((x) => x.whole), [false, false], 'the first step\'s bundle too is cut at what the worker fetched from the origin');
  t.true(c.sent[0]!.bytes * 100 < whole, `the first step moved ${c.sent[0]!.bytes} bytes from the hub, not ${whole}`);
  const log = ((await s.get(`/api/runs/${fromOrigin}/log?pageSize=200`)).body.lines as { text: string }[]).map((l) => l.text);
  t.true(log.some((l) => l.includes(`[worker ${secondId}] fetched the project's base from its origin`)));
  t.deepEqual(filesOf(folder(fromOrigin)), filesOf(folder(local)), 'the work is the same as here');
});
