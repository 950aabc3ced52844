import { git, gitReason, NO_HOOKS } from './git.js';
import type { RunCheckout } from './types.js';

// The one step of a local merge that the person sees: their base branch moves from `from` to the
// merge commit in one compare-and-swap (`update-ref <ref> <new> <old>`), then their index and files
// follow from one tree to the other (`read-tree -m -u`, the way checkout switches branches; the
// checkout was clean). Before the ref moves nothing of theirs has changed; after, the merge is
// done, and finishing the files is redone on restart if a crash came between (finishCheckout).

export interface BuiltMerge {
  readonly c: RunCheckout;
  readonly base: string;
  /** the base branch's commit the merge was built on */
  readonly from: string;
  /** the commit the base branch moves to (the run's tip, for a fast-forward) */
  readonly commit: string;
}

const run = async (dir: string, args: readonly string[]): Promise<string> => {
  const r = await git(dir, args);
  if (r.code !== 0) throw new Error(gitReason(r));
  return r.stdout.trim();
};

const refOf = (base: string): string => `refs/heads/${base}`;

/** where the base branch points now, or null when it is gone */
export const baseTip = async (dir: string, base: string): Promise<string | null> => {
  const r = await git(dir, ['rev-parse', '--verify', '--quiet', `${refOf(base)}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : null;
};

// The files and index go from one tree to the other, only where they still match the first.
const updateCheckout = async (dir: string, from: string, to: string): Promise<void> => {
  await git(dir, ['update-index', '-q', '--refresh']);
  await run(dir, [...NO_HOOKS, 'read-tree', '-m', '-u', from, to]);
};

export const applyMerge = async (b: BuiltMerge, probe?: (point: string) => void): Promise<{ folder: string; base: string; commit: string }> => {
  const dir = b.c.path;
  await run(dir, [...NO_HOOKS, 'update-ref', '-m', `svc: merge ${b.c.branch}`, refOf(b.base), b.commit, b.from]);
  probe?.('merge:ref-moved');
  try {
    await updateCheckout(dir, b.from, b.commit);
  } catch (e) {
    // the person changed a file meanwhile: their branch goes back, so the checkout is as it was
    await git(dir, [...NO_HOOKS, 'update-ref', '-m', 'svc: merge taken back', refOf(b.base), b.from, b.commit]);
    throw e;
  }
  return { folder: b.c.folder, base: b.base, commit: b.commit };
};

/**
 * After a restart, for a merge whose branch had moved: the index and files brought to the merge
 * if they were still on `from` (the crash came before they followed). True when the checkout
 * holds the merge; false when it holds something else that is left alone.
 */
export const finishCheckout = async (dir: string, from: string, commit: string): Promise<boolean> => {
  await git(dir, ['update-index', '-q', '--refresh']);
  const indexIs = async (tree: string) => (await git(dir, ['diff-index', '--cached', '--quiet', tree, '--'])).code === 0;
  if (await indexIs(commit)) return true;
  if (!(await indexIs(from))) return false;
  return (await git(dir, [...NO_HOOKS, 'read-tree', '-m', '-u', from, commit])).code === 0;
};
