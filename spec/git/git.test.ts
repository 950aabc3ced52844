import test from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitOk, GitError, gitReason } from '../../lib/git/git.js';
import { isolateEnv, makeLocalRepo, sh, tempDir } from './helpers.js';

isolateEnv();

test('an inherited GIT_DIR cannot send git to another repository', async (t) => {
  const mine = await makeLocalRepo(t, 'mine');
  const other = await makeLocalRepo(t, 'other');
  process.env.GIT_DIR = join(other, '.git');
  t.teardown(() => delete process.env.GIT_DIR);
  t.is((await gitOk(mine, ['symbolic-ref', '--short', 'HEAD'])).trim(), 'mine');
  t.is(await sh(other, 'symbolic-ref', '--short', 'HEAD'), 'other');
});

test('a missing folder fails with Node\'s reason instead of silence', async (t) => {
  const r = await git(join(tempDir(t), 'nope'), ['status']);
  t.not(r.code, 0);
  t.regex(r.stderr, /ENOENT/);
  const e = await t.throwsAsync(gitOk(join(tempDir(t), 'nope'), ['status']));
  t.true(e instanceof GitError);
});

test('gitReason keeps git\'s words on one line without hints', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'x'));
  const r = await git(join(dir, 'x'), ['rev-parse', '--show-toplevel'], { env: { GIT_CEILING_DIRECTORIES: dir } });
  t.regex(gitReason(r), /not a git repository/);
  t.is(gitReason({ code: 3, stdout: '', stderr: 'hint: do this\nfatal: bad\n' }), 'fatal: bad');
  t.is(gitReason({ code: 3, stdout: '', stderr: '' }), 'git exited with code 3');
});
