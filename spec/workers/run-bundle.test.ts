import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../helpers/env.js';
import { applyResult, bundleForDispatch, bundleResult, dropDispatchRef, folderFromBundle } from '../../lib/workers/run-bundle.js';

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

  await bundleForDispatch(hub, 'r1', 's1', join(files, 'in.bundle'));
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
