import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { git, gitReason, NO_HOOKS } from './git.js';
import { errorText, headBranch, unreadableReason } from './checkout-git.js';
import { applyMerge, type BuiltMerge } from './merge-apply.js';
import type { RunCheckout } from './types.js';
import { publishBranch } from './run-clones.js';

// Merge locally: the run's branch into the base branch of the person's own checkout (each
// folder's), for projects without a code host or by choice. Every folder is checked before any is
// touched (clean, on its base branch, something to merge, the method possible, no conflict), so a
// refusal leaves everything as it was. The merge is built as commit objects first; the person's
// branch then moves in one compare-and-swap ref update, and only then their files
// (lib/git/merge-apply.ts): a crash at any point leaves the checkout merged or untouched, never
// half-merged. Nothing is forced, no hook runs, nothing is signed (an unattended call must not
// stall on a prompt).

export type MergeMethod = 'fast-forward' | 'merge' | 'squash';

export interface MergedFolder { readonly folder: string; readonly base: string; readonly commit: string }

const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

const ok = async (dir: string, args: readonly string[]): Promise<string> => {
  const r = await git(dir, args);
  if (r.code !== 0) throw new Error(gitReason(r));
  return r.stdout.trim();
};

const isAncestor = async (dir: string, a: string, b: string): Promise<boolean> => (await git(dir, ['merge-base', '--is-ancestor', a, b])).code === 0;

// The tree a real merge would make, or the names of the files it would conflict on, computed
// without touching any work tree.
const mergedTree = async (dir: string, base: string, branch: string): Promise<{ tree: string } | { conflicts: string[] }> => {
  const r = await git(dir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', base, branch]);
  if (r.code === 0) return { tree: lines(r.stdout)[0]! };
  if (r.code !== 1) throw new Error(gitReason(r));
  return { conflicts: [...new Set(lines(r.stdout).slice(1))] };
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
  const merged = await mergedTree(c.path, 'HEAD', c.branch);
  if ('conflicts' in merged) return `${base} and ${c.branch} conflict in ${merged.conflicts.join(', ')}; update from base first`;
  // a squash leaves the branch unmerged by ancestry: its changes being in the base is what says it is merged
  const unchanged = method !== 'fast-forward' && merged.tree === (await git(c.path, ['rev-parse', 'HEAD^{tree}'])).stdout.trim();
  return unchanged ? `nothing to merge: ${base} already holds every change of ${c.branch}` : null;
};

// An identity only where the repository has none, so the person's own name stays when they have one.
const identityArgs = async (dir: string): Promise<string[]> => {
  const has = async (key: string) => (await git(dir, ['config', key])).stdout.trim() !== '';
  return [...((await has('user.name')) ? [] : ['-c', 'user.name=svc']), ...((await has('user.email')) ? [] : ['-c', 'user.email=svc@localhost'])];
};

// The merge as commit objects only (merge-tree, commit-tree): nothing the person sees moves until
// applyMerge updates their base branch in one step. An object nothing points at is git's garbage.
const build = async (c: RunCheckout, method: MergeMethod, message: string): Promise<BuiltMerge> => {
  const base = c.baseBranch!;
  const from = await ok(c.path, ['rev-parse', '--verify', `refs/heads/${base}^{commit}`]);
  const tip = await ok(c.path, ['rev-parse', '--verify', `refs/heads/${c.branch}^{commit}`]);
  if (method === 'fast-forward') return { c, base, from, commit: tip };
  const tree = lines(await ok(c.path, ['merge-tree', '--write-tree', '--no-messages', from, tip]))[0]!;
  const parents = method === 'merge' ? ['-p', from, '-p', tip] : ['-p', from];
  const commit = await ok(c.path, [...NO_HOOKS, ...(await identityArgs(c.path)), 'commit-tree', '--no-gpg-sign', ...parents, '-m', message, tree]);
  return { c, base, from, commit };
};

/**
 * Checks every checkout (each folder's refusal, every reason) and builds each folder's merge as a
 * commit nothing points at yet. Left: the refusal; nothing was touched.
 */
export const planMerge = async (checkouts: readonly RunCheckout[], method: MergeMethod, message: string): Promise<Either<string, BuiltMerge[]>> => {
  if (checkouts.length === 0) return left('the run has no checkouts to merge');
  // the merge reads the run's branch in the project's repository: a run's own repository's goes there first
  for (const c of checkouts) {
    const why = c.clone ? await publishBranch(c).then(() => null, errorText) : null;
    if (why) return left(`${why}; nothing was merged`);
  }
  const refusals: string[] = [];
  for (const c of checkouts) {
    const why = await folderRefusal(c, method);
    if (why) refusals.push(checkouts.length > 1 ? `folder ${c.folder}: ${why}` : why);
  }
  if (refusals.length > 0) return left(`${refusals.join('; ')}; nothing was merged`);
  const built: BuiltMerge[] = [];
  for (const c of checkouts) {
    try {
      built.push(await build(c, method, message));
    } catch (e) {
      return left(`merging folder ${c.folder} failed: ${errorText(e)}; nothing was merged`);
    }
  }
  return right(built);
};

/**
 * Merges each checkout's run branch into its base branch in the project's own checkout. Left: the
 * refusal (per folder, every reason), nothing merged; or, should git fail after the checks passed,
 * which folders were merged before it did.
 */
export const mergeLocally = async (checkouts: readonly RunCheckout[], method: MergeMethod, message: string): Promise<Either<string, MergedFolder[]>> => {
  const planned = await planMerge(checkouts, method, message);
  if (isLeft(planned)) return planned;
  const merged: MergedFolder[] = [];
  for (const b of planned.right) {
    try {
      merged.push(await applyMerge(b));
    } catch (e) {
      const done = merged.length > 0 ? `; already merged: ${merged.map((m) => m.folder).join(', ')}` : '; nothing was merged';
      return left(`merging folder ${b.c.folder} failed: ${errorText(e)}${done}`);
    }
  }
  return right(merged);
};
