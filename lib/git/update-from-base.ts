import { gitReason, NO_HOOKS } from './git.js';
import { checkoutGit, unreadableReason } from './checkout-git.js';

// Update from base: bring a base branch that moved on into a run's branch, in the run's worktree,
// by merge or rebase. A conflict is never left behind half-done: the merge or rebase is aborted,
// so the worktree is exactly as it was, and the caller gets the conflicted files to hand to the
// agent (or the person). Hooks are skipped and nothing is signed, as when delivering: an
// unattended call must not stall on a prompt or be altered by a repository's hook.

export type BaseUpdate =
  | { readonly _tag: 'UpToDate' }
  | { readonly _tag: 'Updated'; readonly head: string }
  | { readonly _tag: 'Conflicted'; readonly files: string[] };

export type UpdateMode = 'merge' | 'rebase';

const run = async (dir: string, args: readonly string[]): Promise<string> => {
  const r = await checkoutGit(dir, args);
  if (r.code !== 0) throw new Error(gitReason(r));
  return r.stdout.trim();
};

// An identity only where the repository has none, so the user's own name stays when they have one.
const identityArgs = async (dir: string): Promise<string[]> => {
  const has = async (key: string) => (await checkoutGit(dir, ['config', key])).stdout.trim() !== '';
  return [...((await has('user.name')) ? [] : ['-c', 'user.name=svc']), ...((await has('user.email')) ? [] : ['-c', 'user.email=svc@localhost'])];
};

// Why the update cannot start, or null: git refuses (or worse, carries changes along) with
// uncommitted changes, so those are refused up front with their names.
const notReady = async (dir: string, base: string): Promise<string | null> => {
  const unreadable = await unreadableReason(dir);
  if (unreadable) return unreadable;
  if ((await checkoutGit(dir, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`])).code !== 0) return `there is no branch or commit ${base} to update from`;
  const status = await checkoutGit(dir, ['status', '--porcelain', '--untracked-files=no']);
  const dirty = status.stdout.split('\n').filter((l) => l !== '');
  if (dirty.length > 0) return `the worktree has uncommitted changes (${dirty.map((l) => l.slice(3)).join(', ')}); commit or secure them first`;
  return untrackedClash(dir, base);
};

// Untracked files are left alone, unless the base has a file of the same name: git would stop
// ("would be overwritten") before any merge or rebase began, with nothing to abort, so it is
// refused here with the files named. -z: names as they are, unquoted.
const untrackedClash = async (dir: string, base: string): Promise<string | null> => {
  const untracked = (await run(dir, ['ls-files', '-z', '--others', '--exclude-standard'])).split('\0').filter((f) => f !== '');
  if (untracked.length === 0) return null;
  const inBase = new Set((await run(dir, ['ls-tree', '-r', '-z', '--name-only', base])).split('\0'));
  const clash = untracked.filter((f) => inBase.has(f));
  return clash.length > 0 ? `the worktree's untracked ${clash.join(', ')} would be overwritten by ${base}'s; commit or secure ${clash.length === 1 ? 'it' : 'them'} first` : null;
};

const conflictedFiles = async (dir: string): Promise<string[]> =>
  (await run(dir, ['diff', '--name-only', '--diff-filter=U'])).split('\n').filter((f) => f !== '');

const attempt = async (dir: string, base: string, mode: UpdateMode) => {
  const who = await identityArgs(dir);
  const args = mode === 'merge'
    ? [...NO_HOOKS, ...who, 'merge', '--no-edit', '--no-verify', '--no-gpg-sign', '-m', `svc: merge ${base} into the run's branch`, base]
    : [...NO_HOOKS, ...who, '-c', 'commit.gpgSign=false', 'rebase', '--no-verify', base];
  return checkoutGit(dir, args);
};

/**
 * Merges or rebases `base` (a branch, or any commit git can name, e.g. `origin/main` after a
 * fetch) into the branch checked out at `worktreePath`. Throws when it cannot start (unreadable
 * worktree, unknown base, uncommitted changes), having changed nothing.
 */
export const updateFromBase = async (worktreePath: string, base: string, mode: UpdateMode): Promise<BaseUpdate> => {
  const refused = await notReady(worktreePath, base);
  if (refused) throw new Error(refused);
  if ((await checkoutGit(worktreePath, ['merge-base', '--is-ancestor', base, 'HEAD'])).code === 0) return { _tag: 'UpToDate' };
  const r = await attempt(worktreePath, base, mode);
  if (r.code === 0) return { _tag: 'Updated', head: await run(worktreePath, ['rev-parse', 'HEAD']) };
  const files = await conflictedFiles(worktreePath);
  const aborted = await checkoutGit(worktreePath, [...NO_HOOKS, mode, '--abort']);
  if (files.length > 0 && aborted.code === 0) return { _tag: 'Conflicted', files };
  throw new Error(`${mode} of ${base} failed: ${gitReason(r)}${aborted.code === 0 ? '' : `; and aborting it failed: ${gitReason(aborted)}`}`);
};
