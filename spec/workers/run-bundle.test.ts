import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../helpers/env.js';
import { applyResult, bundleForDispatch, bundleForWorker, bundleResult, dropDispatchRef, folderFromBundle, historyOf, snapshotForDispatch } from '../../lib/workers/run-bundle.js';
import { cacheDir, folderForJob, keepResult } from '../../lib/workers/object-cache.js';
import type { Job } from '../../lib/workers/remote-messages.js';
import { growHistory } from '../helpers/big-history.js';

// The code of a dispatched step moves as git bundles (docs/workers.md), on real repositories: the
// hub's folder with work no commit holds reaches the worker whole, and what the agent did there
// (a commit, a deleted file, a new untracked file) comes back into the hub's folder.

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' }).toString().trim();
const ident = ['-c', 'user.name=t', '-c', 'user.email=t@t'];

test('the hub folder goes to the worker whole; the worker\'s commit, deletion and new file come back, the branch moved', async (t) => {
  const hub = gitRepo({ 'README.md': '# r\n', 'old.txt': 'tracked\n' });
  git(hub, 'checkout', '-q', '-b', 'svc/r1');
  writeFileSync(join(hub, 'draft.txt'), 'not committed on the hub\n');
  writeFileSync(join(hub, 'README.md'), '# r, changed\n');
  const base = git(hub, 'rev-parse', 'HEAD');
  const files = tempDir('svc-bundles-');

  await bundleForDispatch(hub, 's1', join(files, 'in.bundle'));
  const worker = join(tempDir('svc-worker-'), 'folder');
  await folderFromBundle(worker, 'r1', 's1', join(files, 'in.bundle'));
  t.is(readFileSync(join(worker, 'draft.txt'), 'utf8'), 'not committed on the hub\n');
  t.is(readFileSync(join(worker, 'README.md'), 'utf8'), '# r, changed\n');
  t.is(git(worker, 'rev-parse', 'HEAD'), base);
  t.is(git(worker, 'symbolic-ref', 'HEAD'), 'refs/heads/svc/r1');

  // the agent on the worker: commits one file, deletes another, leaves a new one untracked
  writeFileSync(join(worker, 'feature.txt'), 'committed on the worker\n');
  git(worker, 'add', 'feature.txt');
  git(worker, ...ident, 'commit', '-q', '-m', 'feature');
  rmSync(join(worker, 'draft.txt'));
  rmSync(join(worker, 'old.txt'));
  writeFileSync(join(worker, 'notes.txt'), 'untracked on the worker\n');
  const workerHead = git(worker, 'rev-parse', 'HEAD');
  await bundleResult(worker, 'r1', 's1', join(files, 'out.bundle'));

  await applyResult(hub, 'r1', 's1', join(files, 'out.bundle'));
  t.is(git(hub, 'rev-parse', 'HEAD'), workerHead, 'the branch moved to the worker\'s commit');
  t.is(git(hub, 'rev-list', '--count', `${base}..HEAD`), '1');
  t.is(readFileSync(join(hub, 'feature.txt'), 'utf8'), 'committed on the worker\n');
  t.is(readFileSync(join(hub, 'notes.txt'), 'utf8'), 'untracked on the worker\n');
  t.is(readFileSync(join(hub, 'README.md'), 'utf8'), '# r, changed\n');
  t.false(existsSync(join(hub, 'draft.txt')), 'a file the worker deleted is gone (it was never committed)');
  t.false(existsSync(join(hub, 'old.txt')), 'a tracked file the worker deleted is gone');
  t.true(git(hub, 'status', '--porcelain').includes('?? notes.txt'));

  // the hub killed after the work went in and before it recorded the result: the restarted hub
  // applies it again from the same parts, and nothing changes
  const status = git(hub, 'status', '--porcelain');
  await applyResult(hub, 'r1', 's1', join(files, 'out.bundle'));
  t.is(git(hub, 'rev-parse', 'HEAD'), workerHead);
  t.is(git(hub, 'status', '--porcelain'), status);
  t.is(readFileSync(join(hub, 'notes.txt'), 'utf8'), 'untracked on the worker\n');
  t.false(existsSync(join(hub, 'old.txt')));
  // recorded, the dispatch's ref goes too
  await dropDispatchRef(hub, 's1');
  t.is(git(hub, 'for-each-ref', 'refs/svc/'), '', 'no working refs are left behind');
});

// the files of a folder (not .git), path to content
const filesOf = (dir: string, under = ''): Record<string, string> => Object.fromEntries(readdirSync(join(dir, under), { withFileTypes: true })
  .filter((e) => e.name !== '.git')
  .flatMap((e) => (e.isDirectory() ? Object.entries(filesOf(dir, join(under, e.name))) : [[join(under, e.name), readFileSync(join(dir, under, e.name), 'utf8')]])));

test('with a big history, only the first dispatch bundle is whole: later ones and every result hold what is new; a cache that lost its objects gets the whole bundle', async (t) => {
  const hub = gitRepo({ 'README.md': '# r\n' });
  growHistory(hub, 200, 20_000);
  git(hub, 'checkout', '-q', '-b', 'svc/r1');
  const files = tempDir('svc-bundles-');
  const worker = join(tempDir('svc-worker-'), 'folder');
  // the hub's side of a bundle request, as dispatch-requests.ts answers it
  const sent: { have: number; bytes: number }[] = [];
  const fetchFrom = (stepId: string) => async (have?: readonly string[]) => {
    const file = join(files, `${stepId}-${sent.length}.bundle`);
    await bundleForWorker(hub, stepId, file, have ?? []);
    sent.push({ have: have?.length ?? 0, bytes: statSync(file).size });
    return readFileSync(file);
  };
  const results: number[] = [];
  const step = async (stepId: string, n: number) => {
    writeFileSync(join(hub, `hub-${n}.txt`), `left on the hub before step ${n}\n`);
    await snapshotForDispatch(hub, stepId);
    const history = await historyOf(hub, stepId);
    const job: Job = { runId: 'r1', stepId, harness: 'claude', cwd: worker, prompt: 'p', tools: 'edit', watchdogMs: 1000, ...(history ? { history } : {}) };
    const cache = await folderForJob(job, fetchFrom(stepId), join(files, 'in.bundle'), (text) => t.log(text));
    t.truthy(cache, 'the folder was made through the cache');
    t.deepEqual(filesOf(worker), filesOf(hub), `step ${n}: the worker's folder is the hub's`);
    t.is(git(worker, 'rev-parse', 'HEAD'), git(hub, 'rev-parse', 'HEAD'));
    // the agent there commits one file and leaves another
    writeFileSync(join(worker, `agent-${n}.txt`), `committed by step ${n}\n`);
    git(worker, 'add', `agent-${n}.txt`);
    git(worker, ...ident, 'commit', '-q', '-m', `step ${n}`);
    writeFileSync(join(worker, `notes-${n}.txt`), `untracked ${n}\n`);
    const out = join(files, 'out.bundle');
    await bundleResult(worker, 'r1', stepId, out);
    await keepResult(cache, out, stepId);
    results.push(statSync(out).size);
    await applyResult(hub, 'r1', stepId, out);
    await dropDispatchRef(hub, stepId);
    t.is(git(hub, 'rev-parse', 'HEAD'), git(worker, 'rev-parse', 'HEAD'), `step ${n}: the hub's branch is the worker's`);
    t.deepEqual(filesOf(hub), filesOf(worker), `step ${n}: the hub's folder is the worker's`);
  };
  await step('s1', 1);
  await step('s2', 2);
  const whole = sent[0]!.bytes;
  t.is(sent[0]!.have, 0, 'an empty cache names nothing: the first bundle is whole');
  t.true(whole > 2_000_000, `the whole bundle holds the history (${whole} bytes)`);
  t.true(sent[1]!.have > 0 && sent[1]!.bytes * 50 < whole, `the second dispatch holds only what is new (${sent[1]!.bytes} of ${whole} bytes)`);
  for (const r of results) t.true(r * 50 < whole, `a result bundle holds only what is new (${r} of ${whole} bytes)`);

  // the cache's objects are lost, its tips kept: the worker names them, the small bundle does not
  // verify there, and it asks for the whole one
  const cache = cacheDir(git(hub, 'rev-list', '--max-parents=0', 'HEAD'));
  rmSync(join(cache, 'objects'), { recursive: true, force: true });
  git(cache, 'init', '-q', '--bare');
  const before = sent.length;
  await step('s3', 3);
  t.deepEqual(sent.slice(before).map((x) => x.have > 0), [true, false], 'the small bundle first, then the whole one');
  t.true(sent[sent.length - 1]!.bytes > whole * 0.9);
  // the whole cache gone: nothing named, the whole bundle at once
  rmSync(cache, { recursive: true, force: true });
  const again = sent.length;
  await step('s4', 4);
  t.deepEqual(sent.slice(again).map((x) => x.have), [0]);
  t.log(`dispatch bundles (bytes, commits named): ${sent.map((x) => `${x.bytes} (${x.have})`).join(', ')}; result bundles: ${results.join(', ')}`);
  t.is(git(hub, 'rev-list', '--count', 'HEAD'), '205');
  t.is(git(hub, 'for-each-ref', 'refs/svc/'), '', 'no working refs are left behind');
});

// Two slots of one worker take steps of the same project at once, its cache still empty: each
// used to find the other's cache half made and remove it, and a step failed with "in.bundle does
// not appear to be a git repository" (the whole bundle was never fetched when the cache could not
// be opened). Both folders are made, the cache holds both dispatches, and a job that names no
// history gets its folder from the whole bundle.
test('two steps of one project at once on an empty cache: both folders made; a job naming no history gets the whole bundle', async (t) => {
  // a history of its own: a repository like the other tests' made in the same second has the same
  // root commit, so the same cache, which they use (and empty) at the same time
  const hub = gitRepo({ 'README.md': '# two steps at once\n' });
  const files = tempDir('svc-bundles-');
  const fetchFrom = (runId: string, stepId: string) => async (have?: readonly string[]) => {
    const file = join(files, `${stepId}-${have?.length ?? 0}.bundle`);
    await bundleForWorker(hub, stepId, file, have ?? []);
    return readFileSync(file);
  };
  const prepare = async (runId: string, stepId: string) => {
    git(hub, 'checkout', '-q', '-B', `svc/${runId}`, 'main');
    writeFileSync(join(hub, `${runId}.txt`), `${runId}\n`);
    await snapshotForDispatch(hub, stepId);
    rmSync(join(hub, `${runId}.txt`));
    return { history: await historyOf(hub, stepId), worker: join(tempDir('svc-worker-'), 'folder') };
  };
  const a = await prepare('r1', 's1');
  const b = await prepare('r2', 's2');
  t.truthy(a.history);
  const jobOf = (runId: string, stepId: string, cwd: string, history?: string): Job => ({ runId, stepId, harness: 'claude', cwd, prompt: 'p', tools: 'edit', watchdogMs: 1000, ...(history ? { history } : {}) });
  const made = await Promise.all([
    folderForJob(jobOf('r1', 's1', a.worker, a.history), fetchFrom('r1', 's1'), join(files, 'a-in.bundle'), (text) => t.log(text)),
    folderForJob(jobOf('r2', 's2', b.worker, b.history), fetchFrom('r2', 's2'), join(files, 'b-in.bundle'), (text) => t.log(text)),
  ]);
  t.deepEqual(made, [cacheDir(a.history!), cacheDir(a.history!)], 'both folders were made through the one cache');
  t.is(readFileSync(join(a.worker, 'r1.txt'), 'utf8'), 'r1\n');
  t.is(readFileSync(join(b.worker, 'r2.txt'), 'utf8'), 'r2\n');
  t.is(git(a.worker, 'symbolic-ref', 'HEAD'), 'refs/heads/svc/r1');
  t.is(git(b.worker, 'symbolic-ref', 'HEAD'), 'refs/heads/svc/r2');
  t.is(git(cacheDir(a.history!), 'for-each-ref', '--format=%(refname)', 'refs/tips/').split('\n').filter((r) => r.endsWith('-in')).length, 2);

  const c = await prepare('r3', 's3');
  t.is(await folderForJob(jobOf('r3', 's3', c.worker), fetchFrom('r3', 's3'), join(files, 'c-in.bundle'), (text) => t.log(text)), null, 'no cache without a history');
  t.is(readFileSync(join(c.worker, 'r3.txt'), 'utf8'), 'r3\n');
});

// A worker's cache takes a pack (or loose objects) from every bundle fetched in, and its own
// gc.auto is 0 so no background gc runs under a step: after a few hundred steps every lookup walked
// hundreds of packs. Here the cache is given 55 packs, one per commit of the project; the next
// result kept there is followed, in the cache's turn, by git's housekeeping: the packs are one, the
// tips all still there, and the next step's folder is made from the cache.
test('a cache grown to many packs is repacked after a result is kept; its tips stay and the next folder is made from it', async (t) => {
  const hub = gitRepo({ 'README.md': '# many packs\n' });
  git(hub, 'checkout', '-q', '-b', 'svc/r1');
  const files = tempDir('svc-bundles-');
  const worker = join(tempDir('svc-worker-'), 'folder');
  const jobFor = async (stepId: string): Promise<Job> => {
    await snapshotForDispatch(hub, stepId);
    const history = await historyOf(hub, stepId);
    return { runId: 'r1', stepId, harness: 'claude', cwd: worker, prompt: 'p', tools: 'edit', watchdogMs: 1000, ...(history ? { history } : {}) };
  };
  const fetchFrom = (stepId: string) => async (have?: readonly string[]) => {
    const file = join(files, `${stepId}.bundle`);
    await bundleForWorker(hub, stepId, file, have ?? []);
    return readFileSync(file);
  };
  const cache = await folderForJob(await jobFor('s1'), fetchFrom('s1'), join(files, 'in.bundle'), (text) => t.log(text));
  t.truthy(cache);
  // 55 packs, as 55 bundles of other runs' work would have left them
  const lab = tempDir('svc-packs-');
  git(lab, 'init', '-q');
  for (let n = 0; n < 55; n++) {
    writeFileSync(join(lab, `f${n}.txt`), `pack ${n}\n`);
    git(lab, 'add', '.');
    git(lab, ...ident, 'commit', '-q', '-m', `c${n}`);
    git(lab, 'bundle', 'create', '-q', join(lab, 'b.bundle'), n === 0 ? 'HEAD' : 'HEAD^..HEAD');
    git(cache!, '-c', 'fetch.unpackLimit=1', 'fetch', '-q', join(lab, 'b.bundle'), `+HEAD:refs/other/${n}`);
  }
  const packs = () => readdirSync(join(cache!, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
  t.true(packs() >= 55, `${packs()} packs`);
  const tips = git(cache!, 'for-each-ref', '--format=%(refname) %(objectname)');

  // the agent's work, kept in the cache: the housekeeping follows in the cache's turn
  writeFileSync(join(worker, 'agent.txt'), 'by step 1\n');
  git(worker, 'add', 'agent.txt');
  git(worker, ...ident, 'commit', '-q', '-m', 'step 1');
  const out = join(files, 'out.bundle');
  await bundleResult(worker, 'r1', 's1', out);
  await keepResult(cache, out, 's1');
  await applyResult(hub, 'r1', 's1', out);
  await dropDispatchRef(hub, 's1');
  // the next step on the cache waits for it, and is made from the cache
  writeFileSync(join(hub, 'hub.txt'), 'on the hub before step 2\n');
  t.is(await folderForJob(await jobFor('s2'), fetchFrom('s2'), join(files, 'in.bundle'), (text) => t.log(text)), cache, 'made through the cache');
  t.true(packs() <= 2, `${packs()} packs after the housekeeping`);
  for (const line of tips.split('\n')) {
    const [ref, id] = line.split(' ');
    t.is(git(cache!, 'rev-parse', `${ref}^{commit}`), id, `${ref} is still there`);
  }
  t.is(readFileSync(join(worker, 'agent.txt'), 'utf8'), 'by step 1\n');
  t.is(readFileSync(join(worker, 'hub.txt'), 'utf8'), 'on the hub before step 2\n');
});
