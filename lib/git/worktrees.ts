import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../paths.js';
import { git, gitOk, gitReason, NO_HOOKS } from './git.js';
import type { ProjectFolder, RunCheckout } from './types.js';
import { withRepoLock } from './repo-lock.js';
import { findWorktree, pruneWorktrees } from './worktree-list.js';
import { ensureClone, removeClone } from './run-clones.js';

// Each run works in its own folder per project folder, on its own branch, so the user's checkout
// is never touched: in the user's repository we only create the run's branch (no checkout, stash,
// reset or status there). The folder is the run's own repository (lib/git/run-clones.ts), or, for
// runs made before those, a linked git worktree registered in the user's repository.

/** `clone`: the run's own repository (the default); `worktree`: a linked worktree, as runs had before */
export type RunFolderKind = 'clone' | 'worktree';

// A run id becomes a branch name and a folder name: keep it to characters safe in both.
const SAFE_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const assertRunId = (runId: string): void => {
  if (!SAFE_RUN_ID.test(runId)) throw new Error(`invalid run id for a branch or folder name: ${JSON.stringify(runId)}`);
};

// A folder name becomes one path segment under the run's folder: never a path of its own.
const assertFolderName = (name: string): void => {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new Error(`invalid folder name for a worktree: ${JSON.stringify(name)}`);
  }
};

/**
 * The run's branch, the same name in every folder of the project: `svc/<runId>`.
 * Pushes go to the same name on origin; backups to `svc-backup/<runId>/<commit>`.
 */
export const runBranchName = (runId: string): string => {
  assertRunId(runId);
  return `svc/${runId}`;
};

export const runWorktreesDir = (home: string, runId: string): string => {
  assertRunId(runId);
  return join(home, 'worktrees', runId);
};

/** Where a run's worktree of one folder lives: `<home>/worktrees/<runId>/<folderName>`. */
export const worktreeDir = (home: string, runId: string, folderName: string): string => {
  assertFolderName(folderName);
  return join(runWorktreesDir(home, runId), folderName);
};

const folderLabel = (f: ProjectFolder): string => `folder "${f.name}" (${f.path})`;

// The commit to branch from, with an error that names the folder when it is no repository.
const headCommit = async (f: ProjectFolder): Promise<string> => {
  if (!existsSync(f.path)) throw new Error(`${folderLabel(f)} does not exist`);
  // one git call (each spawn costs svc several ms): "true" and HEAD's commit; exit 1 after "true"
  // when the branch has no commit yet; 128 (or "false") when the folder is no work tree
  const r = await git(f.path, ['rev-parse', '--is-inside-work-tree', '--verify', '--quiet', 'HEAD^{commit}']);
  const [inside, head] = r.stdout.trim().split('\n');
  if ((r.code !== 0 && r.code !== 1) || inside !== 'true') {
    throw new Error(`${folderLabel(f)} is not a git repository: ${gitReason(r)}`);
  }
  if (r.code !== 0 || !head) throw new Error(`${folderLabel(f)} has no commit to start a run from`);
  return head;
};

const currentBranch = async (repo: string): Promise<string | null> => {
  const r = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
};

// On a re-create the branch already exists: its oldest reflog entry is where it was created
// (git logs branch creation by default); without a reflog its tip is the best we know.
const creationPoint = async (repo: string, branch: string): Promise<string> => {
  const log = await git(repo, ['log', '-g', '--format=%H', `refs/heads/${branch}`, '--']);
  const oldest = log.code === 0 ? log.stdout.trim().split('\n').filter(Boolean).pop() : undefined;
  return oldest ?? (await gitOk(repo, ['rev-parse', '--verify', `refs/heads/${branch}^{commit}`])).trim();
};

// Creates the run's branch at `head` unless it exists (a re-create after a crash keeps it as is).
const ensureBranch = async (repo: string, branch: string, head: string): Promise<string> => {
  const exists = await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (exists.code === 0) return creationPoint(repo, branch);
  await gitOk(repo, [...NO_HOOKS, 'branch', '--no-track', branch, head]);
  return head;
};

// Clears what a crash can leave in the way of `worktree add`: a half-made worktree (git locks
// it "initializing" until checkout ends), a registration whose folder is gone, an empty folder.
const clearLeftovers = async (repo: string, dir: string): Promise<'reuse' | 'add'> => {
  const registered = await findWorktree(repo, dir);
  if (registered && registered.locked === 'initializing') {
    await gitOk(repo, ['worktree', 'remove', '--force', '--force', dir]);
  } else if (registered && !registered.prunable && existsSync(dir)) {
    return 'reuse';
  }
  await pruneWorktrees(repo);
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  if (existsSync(dir)) throw new Error(`${dir} exists and is not a worktree of ${repo}; move it away to start this run`);
  return 'add';
};

const createClone = async (directory: string, runId: string, f: ProjectFolder, head: string): Promise<string> => {
  const branch = runBranchName(runId);
  const base = await withRepoLock(f.path, () => ensureBranch(f.path, branch, head));
  try {
    await ensureClone(f.path, directory, branch, runId);
  } catch (e) {
    throw new Error(`${folderLabel(f)}: could not make the run's repository: ${e instanceof Error ? e.message : String(e)}`);
  }
  return base;
};

const createWorktree = async (directory: string, runId: string, f: ProjectFolder, head: string): Promise<string> => {
  const branch = runBranchName(runId);
  return withRepoLock(f.path, async () => {
    const step = await clearLeftovers(f.path, directory);
    const from = await ensureBranch(f.path, branch, head);
    if (step === 'add') {
      // Hooks stay off: an unattended service must not run (or wait on) the user's post-checkout.
      const added = await git(f.path, [...NO_HOOKS, 'worktree', 'add', '--quiet', directory, branch]);
      if (added.code !== 0) throw new Error(`${folderLabel(f)}: could not add the run's worktree: ${gitReason(added)}`);
    }
    return from;
  });
};

const createOne = async (home: string, runId: string, f: ProjectFolder, kind: RunFolderKind, start?: string): Promise<RunCheckout> => {
  const directory = worktreeDir(home, runId, f.name);
  const head = start ?? (await headCommit(f));
  const baseBranch = await currentBranch(f.path);
  const base = kind === 'clone' ? await createClone(directory, runId, f, head) : await createWorktree(directory, runId, f, head);
  ensurePrivateDir(directory); // git made it with the umask's bits
  return { folder: f.name, path: f.path, directory, branch: runBranchName(runId), base, baseBranch, ...(kind === 'clone' ? { clone: true } : {}) };
};

/**
 * Gives the run a branch `svc/<runId>` (from each folder's current HEAD commit) and a worktree
 * at worktreeDir, per folder, in order. Safe to call again after a crash: what exists is reused.
 */
export const createRunWorktrees = async (
  home: string, runId: string, folders: readonly ProjectFolder[], startAt?: ReadonlyMap<string, string>, kind: RunFolderKind = 'clone',
): Promise<RunCheckout[]> => {
  folders.forEach((f) => assertFolderName(f.name));
  const names = folders.map((f) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`folder name "${twice}" is given twice; each folder needs its own worktree`);
  ensurePrivateDir(join(home, 'worktrees'));
  ensurePrivateDir(runWorktreesDir(home, runId));
  const checkouts: RunCheckout[] = [];
  // startAt: a fork's commit per folder (its snapshot's parent) instead of the folder's HEAD
  for (const f of folders) checkouts.push(await createOne(home, runId, f, kind, startAt?.get(f.name)));
  return checkouts;
};

const removeCloneOf = async (runId: string, c: RunCheckout): Promise<string | null> => {
  try {
    await removeClone(c.path, c.directory, runId, c.branch);
    return null;
  } catch (e) {
    return `folder "${c.folder}" (${c.path}): ${e instanceof Error ? e.message : String(e)}`;
  }
};

const removeOne = async (home: string, runId: string, f: ProjectFolder): Promise<string | null> => {
  const dir = worktreeDir(home, runId, f.name);
  const repoReadable = existsSync(f.path) && (await git(f.path, ['rev-parse', '--git-dir'])).code === 0;
  const failure = !repoReadable ? null : await withRepoLock(f.path, async () => {
    if (await findWorktree(f.path, dir)) {
      // Twice --force: also removes a worktree left locked by a crash during creation.
      const removed = await git(f.path, ['worktree', 'remove', '--force', '--force', dir]);
      if (removed.code !== 0) return `${folderLabel(f)}: ${gitReason(removed)}`;
    }
    await pruneWorktrees(f.path);
    return null;
  });
  if (failure) return failure;
  // Whatever is left is ours alone (it lives under the service's home).
  rmSync(dir, { recursive: true, force: true });
  return null;
};

/**
 * Removes the run's folders and keeps its branches (they hold the run's commits): a clone's refs
 * are published into the user's repository first. Idempotent.
 */
export const removeRunWorktrees = async (home: string, runId: string, checkouts: readonly (RunCheckout | ProjectFolder)[]): Promise<void> => {
  const failures: string[] = [];
  for (const c of checkouts) {
    // a bare folder names no kind: its run folder is whichever is there
    const clone = 'folder' in c ? c.clone === true : existsSync(join(worktreeDir(home, runId, c.name), '.git', 'config'));
    const name = 'folder' in c ? c.folder : c.name;
    const failure = clone
      ? await removeCloneOf(runId, { folder: name, path: c.path, directory: worktreeDir(home, runId, name), branch: runBranchName(runId), base: '' })
      : await removeOne(home, runId, { name, path: c.path });
    if (failure) failures.push(failure);
  }
  const runDir = runWorktreesDir(home, runId);
  if (existsSync(runDir) && readdirSync(runDir).length === 0) rmdirSync(runDir);
  if (failures.length > 0) throw new Error(`could not remove the worktrees of run ${runId}: ${failures.join('; ')}`);
};
