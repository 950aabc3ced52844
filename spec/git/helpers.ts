import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { ExecutionContext } from 'ava';
import { gitOk } from '../../lib/git/git.js';

// Real repositories in temp folders: a bare "origin" and the user's clone of it.

/** Call at the top of a test file: HOME and SVC_HOME in temp folders, no system git config. */
export const isolateEnv = (): void => {
  const home = (process.env.HOME = mkdtempSync(join(tmpdir(), 'svc-git-home-')));
  const svcHome = (process.env.SVC_HOME = mkdtempSync(join(tmpdir(), 'svc-git-svchome-')));
  process.once('exit', () => [home, svcHome].forEach((d) => rmSync(d, { recursive: true, force: true })));
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  delete process.env.GIT_CONFIG_GLOBAL;
  for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_DIR', 'GIT_WORK_TREE']) delete process.env[k];
};

export const tempDir = (t: ExecutionContext, prefix = 'svc-git-'): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

// Setup commits carry an identity of their own (the code under test must cope without one).
const SETUP_IDENTITY = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.test',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.test',
};

/** git for test setup and inspection; throws on failure. Output trimmed. */
export const sh = async (cwd: string, ...args: string[]): Promise<string> =>
  (await gitOk(cwd, args, { env: SETUP_IDENTITY })).trim();

export const write = (dir: string, file: string, text: string): void => {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
};

export const commitFile = async (dir: string, file: string, text: string, message = `change ${file}`): Promise<string> => {
  write(dir, file, text);
  await sh(dir, 'add', '--', file);
  await sh(dir, 'commit', '-q', '-m', message);
  return sh(dir, 'rev-parse', 'HEAD');
};

export interface Project {
  readonly root: string;
  /** the bare repository standing in for origin */
  readonly origin: string;
  /** the user's own checkout, cloned from origin */
  readonly user: string;
  /** SVC home for this test */
  readonly home: string;
}

/** A bare origin (default branch `defaultBranch`) and the user's clone, checked out on it. */
export const makeProject = async (t: ExecutionContext, defaultBranch = 'main'): Promise<Project> => {
  const root = tempDir(t);
  const seed = join(root, 'seed');
  mkdirSync(seed);
  await sh(seed, 'init', '-q', '-b', defaultBranch);
  await commitFile(seed, 'README.md', '# app\n', 'first');
  await commitFile(seed, 'src/a.txt', 'a\n', 'second');
  const origin = join(root, 'origin.git');
  await sh(root, 'clone', '-q', '--bare', seed, origin);
  const user = join(root, 'user');
  await sh(root, 'clone', '-q', origin, user);
  const home = join(root, 'svc-home');
  return { root, origin, user, home };
};

/** A repository with one commit and no remote at all. */
export const makeLocalRepo = async (t: ExecutionContext, branch = 'main'): Promise<string> => {
  const dir = join(tempDir(t), 'local');
  mkdirSync(dir);
  await sh(dir, 'init', '-q', '-b', branch);
  await commitFile(dir, 'README.md', '# local\n', 'first');
  return dir;
};

const hash = (buf: Buffer): string => createHash('sha256').update(buf).digest('hex');

const listFiles = (dir: string, root = dir, out: Record<string, string> = {}): Record<string, string> => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) listFiles(p, root, out);
    else out[relative(root, p)] = hash(readFileSync(p));
  }
  return out;
};

/**
 * Everything about a user's checkout that the service must not change: HEAD, its branch, the
 * index file's bytes, status, and every work-tree file's content (the .git folder excluded:
 * creating a branch and a worktree is allowed to write there).
 */
export const snapshotCheckout = async (dir: string) => ({
  index: hash(readFileSync(join(dir, '.git', 'index'))),
  headFile: readFileSync(join(dir, '.git', 'HEAD'), 'utf8'),
  head: await sh(dir, 'rev-parse', 'HEAD'),
  status: await sh(dir, '--no-optional-locks', 'status', '--porcelain=v2', '--branch', '--untracked-files=all', '--ignored'),
  files: (() => {
    const files = listFiles(dir);
    for (const k of Object.keys(files)) if (k === '.git' || k.startsWith(`.git/`)) delete files[k];
    return files;
  })(),
});

/** The commit origin's branch points at, or null when origin has no such branch. */
export const originTip = async (origin: string, branch: string): Promise<string | null> => {
  const out = await sh(origin, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
  return out === '' ? null : out;
};
