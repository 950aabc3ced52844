import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitOk, GitError, gitReason } from '../../lib/git/git.js';
import { commitFile, isolateEnv, makeLocalRepo, sh, tempDir } from './helpers.js';

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

test('svc\'s git starts no background maintenance, and config a person put in the environment still applies', async (t) => {
  const from = await makeLocalRepo(t, 'from');
  for (let i = 0; i < 3; i++) await commitFile(from, `f${i}.txt`, `${i}\n`);
  const into = tempDir(t);
  await sh(into, 'init', '-q');
  const trace = (name: string) => join(tempDir(t), name);
  const fetch = ['fetch', '-q', from, 'refs/heads/from:refs/heads/x'];
  // the same fetch by git as a person runs it: after any fetch git starts `git maintenance run --auto`,
  // which then decides whether there is housekeeping to do
  const plain = trace('plain');
  execFileSync('git', fetch, { cwd: into, env: { ...process.env, GIT_TRACE: plain } });
  t.regex(readFileSync(plain, 'utf8'), /maintenance run --auto/, 'the control: a fetch of git\'s own does start it');
  // the objects dropped again, so svc's fetch brings the same as the control's
  await sh(into, 'update-ref', '-d', 'refs/heads/x');
  await sh(into, 'reflog', 'expire', '--expire=now', '--all');
  await sh(into, 'gc', '-q', '--prune=now');
  const ours = trace('ours');
  await gitOk(into, fetch, { env: { GIT_TRACE: ours } });
  t.notRegex(readFileSync(ours, 'utf8'), /maintenance/);
  const person = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'Ada' };
  t.is((await gitOk(into, ['config', '--get-regexp', '^(user\\.name|maintenance\\.auto)$'], { env: person })).trim(), 'user.name Ada\nmaintenance.auto false');
});
