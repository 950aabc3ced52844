import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { git, gitReason, NO_HOOKS } from './git.js';
import { headBranch, unreadableReason } from './checkout-git.js';
import type { RunCheckout } from './types.js';
import { publishBranch } from './run-clones.js';

// Merge locally: the run's branch into the base branch of the person's own checkout (each
// folder's), for projects without a code host or by choice. Every folder is checked before any is
// touched (clean, on its base branch, something to merge, the method possible, no conflict), so a
// refusal leaves everything as it was. Only the checked-out base branch moves; nothing is forced,
// no hook runs, nothing is signed (an unattended call must not stall on a prompt).

export type MergeMethod = 'fast-forward' | 'merge' | 'squash';

export interface MergedFolder { readonly folder: string; readonly base: string; readonly commit: string }

interface Plan { readonly c: RunCheckout; readonly base: string }

const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

const ok = async (dir: string, args: readonly string[]): Promise<string> => {
  const r = await git(dir, args);
  if (r.code !== 0) throw new Error(gitReason(r));
  return r.stdout.trim();
};

const isAncestor = async (dir: string, a: string, b: string): Promise<boolean> => (await git(dir, ['merge-base', '--is-ancestor', a, b])).code === 0;

// Names of the files a real merge would conflict on, computed without touching any work tree.
const conflicts = async (dir: string, base: string, branch: string): Promise<string[]> => {
  const r = await git(dir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', base, branch]);
  if (r.code === 0) return [];
  if (r.code !== 1) throw new Error(gitReason(r));
  return [...new Set(lines(r.stdout).slice(1))];
};

// In the project's checkout untracked files are the person's and are left alone; in the run's
// worktree a new file is the agent's work like any other (agents leave new files uncommitted), so
// it counts there: else a run whose work is new files reads as "nothing to merge".
const dirtyFiles = async (dir: string, untracked: 'no' | 'all' = 'no'): Promise<string[]> =>
  lines((await git(dir, ['status', '--porcelain', `--untracked-files=${untracked}`])).stdout).map((l) => l.slice(3));

// Why this folder cannot be merged now, in words for the person; null when it can.
const folderRefusal = async (c: RunCheckout, method: MergeMethod): Promise<string | null> => {
  const base = c.baseBranch;
  if (!base) return `the run's base branch is unknown (the checkout was on a detached HEAD when the run began)`;
  const unreadable = await unreadableReason(c.path);
  if (unreadable) return `the project's checkout: ${unreadable}`;
  const head = await headBranch(c.path);
  if (head !== base) return `the project's checkout ${c.path} is on ${head === null ? 'a detached HEAD' : `branch ${head}`}, not on the base branch ${base}`;
  const dirty = await dirtyFiles(c.path);
  if (dirty.length > 0) return `the project's checkout ${c.path} has uncommitted changes: ${dirty.join(', ')}`;
  if ((await git(c.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${c.branch}`])).code !== 0) return `there is no branch ${c.branch} to merge`;
  const unsaved = (await unreadableReason(c.directory)) ? [] : await dirtyFiles(c.directory, 'all');
  if (unsaved.length > 0) return `the run's worktree has uncommitted changes (${unsaved.join(', ')}); secure the work first so they are merged too`;
  if (await isAncestor(c.path, c.branch, 'HEAD')) return `nothing to merge: ${base} already holds every commit of ${c.branch}`;
  if (method === 'fast-forward' && !(await isAncestor(c.path, 'HEAD', c.branch))) {
    return `not a fast-forward: ${base} has commits that ${c.branch} lacks; update from base first, or merge or squash`;
  }
  const conflicted = await conflicts(c.path, 'HEAD', c.branch);
  return conflicted.length > 0 ? `${base} and ${c.branch} conflict in ${conflicted.join(', ')}; update from base first` : null;
};

// An identity only where the repository has none, so the person's own name stays when they have one.
const identityArgs = async (dir: string): Promise<string[]> => {
  const has = async (key: string) => (await git(dir, ['config', key])).stdout.trim() !== '';
  return [...((await has('user.name')) ? [] : ['-c', 'user.name=svc']), ...((await has('user.email')) ? [] : ['-c', 'user.email=svc@localhost'])];
};

const mergeOne = async ({ c, base }: Plan, method: MergeMethod, message: string): Promise<MergedFolder> => {
  const who = await identityArgs(c.path);
  const commitArgs = ['--no-verify', '--no-gpg-sign', '-m', message];
  if (method === 'fast-forward') await ok(c.path, [...NO_HOOKS, ...who, 'merge', '--ff-only', '--quiet', c.branch]);
  if (method === 'merge') await ok(c.path, [...NO_HOOKS, ...who, 'merge', '--no-ff', '--quiet', ...commitArgs, c.branch]);
  if (method === 'squash') {
    await ok(c.path, [...NO_HOOKS, ...who, 'merge', '--squash', '--quiet', c.branch]);
    // the checkout was clean: a squash that cannot be committed is taken back out of it
    await ok(c.path, [...NO_HOOKS, ...who, 'commit', '--quiet', ...commitArgs]).catch(async (e: unknown) => {
      await git(c.path, [...NO_HOOKS, 'reset', '--quiet', '--merge']);
      throw e;
    });
  }
  return { folder: c.folder, base, commit: await ok(c.path, ['rev-parse', 'HEAD']) };
};

/**
 * Merges each checkout's run branch into its base branch in the project's own checkout. Left: the
 * refusal (per folder, every reason), nothing merged; or, should git fail after the checks passed,
 * which folders were merged before it did.
 */
export const mergeLocally = async (checkouts: readonly RunCheckout[], method: MergeMethod, message: string): Promise<Either<string, MergedFolder[]>> => {
  if (checkouts.length === 0) return left('the run has no checkouts to merge');
  // the merge reads the run's branch in the project's repository: a run's own repository's goes there first
  for (const c of checkouts) {
    const why = c.clone ? await publishBranch(c).then(() => null, (e: unknown) => (e instanceof Error ? e.message : String(e))) : null;
    if (why) return left(`${why}; nothing was merged`);
  }
  const refusals: string[] = [];
  for (const c of checkouts) {
    const why = await folderRefusal(c, method);
    if (why) refusals.push(checkouts.length > 1 ? `folder ${c.folder}: ${why}` : why);
  }
  if (refusals.length > 0) return left(`${refusals.join('; ')}; nothing was merged`);
  const merged: MergedFolder[] = [];
  for (const c of checkouts) {
    try {
      merged.push(await mergeOne({ c, base: c.baseBranch! }, method, message));
    } catch (e) {
      const done = merged.length > 0 ? `; already merged: ${merged.map((m) => m.folder).join(', ')}` : '; nothing was merged';
      return left(`merging folder ${c.folder} failed: ${e instanceof Error ? e.message : String(e)}${done}`);
    }
  }
  return right(merged);
};
