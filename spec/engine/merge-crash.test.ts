import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eventually, fixtureModule, freshHome, repoRoot, tempDir, writeWorkflow } from '../helpers/env.js';
import { type ChildServer, endServer, exited, killHard, spawnServer } from '../helpers/child-server.js';
import { prepared } from '../helpers/prepared-home.js';
import { TWO_STEPS } from '../mcp/helpers/real.js';

// Issue 33: a local merge killed part way left the person's checkout half-merged (files staged,
// SQUASH_MSG, HEAD unmoved), or moved their branch with no RunMerged recorded. The server is
// SIGKILLed at each point of a merge (a fixture's probe), then started again; every ref and file
// of the checkout is compared with what it was: before the branch moves, all exactly as it was
// (and a merge then goes through); from the branch's move on, merged whole, recorded once.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const PROBE = fixtureModule('fork-probe', 'probe.ts');
const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);

const files = (dir: string, root = dir, out: Record<string, string> = {}): Record<string, string> => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (relative(root, p) === '.git') continue;
    if (e.isDirectory()) files(p, root, out);
    else out[relative(root, p)] = hash(readFileSync(p));
  }
  return out;
};

/** every ref, HEAD, the index's entries, status, every file, and git's in-progress markers */
const checkout = (dir: string) => ({
  refs: git(dir, 'for-each-ref', '--format=%(refname) %(objectname)'),
  head: readFileSync(join(dir, '.git', 'HEAD'), 'utf8'),
  index: git(dir, 'ls-files', '-s'),
  status: git(dir, '--no-optional-locks', 'status', '--porcelain=v2', '--untracked-files=all', '--ignored'),
  files: files(dir),
  markers: ['MERGE_HEAD', 'MERGE_MSG', 'SQUASH_MSG', 'ORIG_HEAD', 'index.lock', 'CHERRY_PICK_HEAD'].filter((f) => existsSync(join(dir, '.git', f))),
});

const events = async (url: string, runId: string) => (await json(`${url}/api/runs/${runId}/history?pageSize=200`)).events as any[];

/** an ended run whose work is secured, pushed to a local bare origin; made once, restored per test */
const secured = prepared(async () => {
  const home = freshHome();
  writeWorkflow(home, 'two', TWO_STEPS);
  // the person's checkout, with a local bare origin so securing the work pushes it
  const root = tempDir('svc-merge-crash-');
  const work = join(root, 'app');
  git(root, 'init', '-q', '--bare', join(root, 'app.git'));
  git(root, 'init', '-q', '-b', 'main', work);
  writeFileSync(join(work, 'README.md'), 'app\n');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', 'init');
  git(work, 'remote', 'add', 'origin', join(root, 'app.git'));
  git(work, 'push', '-q', 'origin', 'main');
  const a = await spawnServer(home);
  const project = await (await post(`${a.url}/api/projects`, { name: 'merging', folders: [{ path: work }] })).json() as any;
  const { runId } = await (await post(`${a.url}/api/runs`, { project: project.id, goal: '[write:feature.txt=the run][report:success]', workflow: 'two' })).json() as any;
  await eventually(() => json(`${a.url}/api/runs/${runId}`), (r) => r.phase === 'Ended', 60_000);
  const securing = await post(`${a.url}/api/runs/${runId}/secure`, {});
  if (securing.status !== 200) throw new Error(`secure: ${await securing.text()}`);
  await killHard(a);
  return { home, root, work, runId: runId as string };
}, ({ home, root }) => [home, root]);

/** an ended run whose work is secured, in a checkout with the person's own untracked file */
const setUp = async (method: string) => {
  const { home, work, runId } = await secured();
  if (method !== 'fast-forward') {
    writeFileSync(join(work, 'theirs.txt'), 'the person moved on\n');
    git(work, 'add', 'theirs.txt');
    git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', 'theirs');
  }
  writeFileSync(join(work, 'notes.txt'), 'untracked, the person\'s own\n');
  return { home, work, runId };
};

const settled = (url: string, runId: string) => eventually(() => events(url, runId), (es) => {
  const started = es.filter((e) => e.type === 'MergeStarted').length;
  return started === 0 || es.some((e) => e.type === 'RunMerged' || e.type === 'MergeAbandoned');
}, 30_000);

const POINTS = ['merge:before-record', 'merge:recorded', 'merge:ref-moved', 'merge:checkout-updated'] as const;
const MOVED: readonly string[] = ['merge:ref-moved', 'merge:checkout-updated'];

for (const method of ['fast-forward', 'merge', 'squash'] as const) {
  for (const point of POINTS) {
    test.serial(`${method}, SIGKILL at ${point}: after a restart the checkout is merged whole or untouched, and recorded so`, async (t) => {
      t.timeout(240_000);
      const { home, work, runId } = await setUp(method);
      const before = checkout(work);
      const crashing = await spawnServer(home, { SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });
      t.teardown(() => endServer(crashing));
      const answer = await post(`${crashing.url}/api/runs/${runId}/merge`, { method }).then((r) => r.json() as Promise<any>, () => null);
      await exited(crashing);
      t.not(crashing.child.signalCode, null, `the probe ended the server at ${point}`);
      t.is(answer, null, 'the server died before answering');

      const again = await spawnServer(home);
      t.teardown(() => endServer(again));
      const history = await settled(again.url, runId);
      const after = checkout(work);
      const merges = history.filter((e) => e.type === 'RunMerged');
      if (!MOVED.includes(point)) {
        t.deepEqual(after, before, 'every ref and file as it was');
        t.deepEqual(merges, [], 'no merge recorded');
        t.is(history.filter((e) => e.type === 'MergeAbandoned').length, point === 'merge:recorded' ? 1 : 0);
        const retried = await post(`${again.url}/api/runs/${runId}/merge`, { method });
        t.is(retried.status, 200, 'nothing was left in the way of merging now');
        return;
      }
      const tip = git(work, 'rev-parse', 'refs/heads/main');
      t.not(tip, git(work, 'rev-parse', before.refs.split('\n').find((l) => l.startsWith('refs/heads/main '))!.split(' ')[1]!));
      t.deepEqual(merges.map((e) => e.data.commit), [tip], 'recorded merged once, at the branch\'s new tip');
      const others = (refs: string) => refs.split('\n').filter((l) => !l.startsWith('refs/heads/main ')).join('\n');
      t.is(others(after.refs), others(before.refs), 'no other ref moved');
      t.is(after.head, before.head, 'still on main');
      t.is(git(work, 'status', '--porcelain'), '?? notes.txt', 'clean, the person\'s untracked file left alone');
      t.deepEqual(after.markers, []);
      const treeAsIndex = git(work, 'ls-tree', '-r', tip).split('\n').map((l) => l.replace(/^(\d+) blob ([0-9a-f]+)\t/, '$1 $2 0\t')).join('\n');
      t.is(after.index, treeAsIndex, 'the index is the merge\'s tree');
      t.is(readFileSync(join(work, 'feature.txt'), 'utf8'), 'the run');
      t.is(readFileSync(join(work, 'notes.txt'), 'utf8'), 'untracked, the person\'s own\n');
      const again2 = await post(`${again.url}/api/runs/${runId}/merge`, { method });
      t.is(again2.status, 409, 'merged already');
    });
  }
}
