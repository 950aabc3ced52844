import { checkoutGit, errorText, unreadableReason } from './checkout-git.js';
import type { RunCheckout } from './types.js';

// The run's changes as unified diff text, per folder: everything in the worktree (commits on the
// run's branch, staged, unstaged and untracked files) against the commit the branch was made from.
// Read only, like worktree-status: no index refresh, no temporary index, nothing added, so reading
// never races the agent. Capped, so a run that wrote a huge file cannot make one answer huge.

export interface FolderDiff {
  readonly folder: string;
  readonly branch: string;
  /** the commit the run's branch was created from */
  readonly base: string;
  readonly diff: string;
  /** true when the text was cut at the cap (files after it are left out) */
  readonly truncated: boolean;
}

export interface UnreadableFolderDiff {
  readonly folder: string;
  readonly branch: string;
  readonly base: string;
  readonly detail: string;
}

export const MAX_DIFF_BYTES = 2 * 1024 * 1024;
const MAX_UNTRACKED = 500;

const flags = ['--no-pager', '-c', 'core.quotePath=false', '--no-optional-locks'];
const diffFlags = ['--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/'];

const readOne = async (c: RunCheckout, cap: number): Promise<FolderDiff | UnreadableFolderDiff> => {
  const known = { folder: c.folder, branch: c.branch, base: c.base };
  const unreadable = await unreadableReason(c.directory);
  if (unreadable) return { ...known, detail: unreadable };
  try {
    const tracked = await checkoutGit(c.directory, [...flags, 'diff', ...diffFlags, c.base, '--']);
    if (tracked.code !== 0) throw new Error(tracked.stderr.trim() || 'git diff failed');
    let diff = tracked.stdout;
    let truncated = diff.length > cap;
    const others = await checkoutGit(c.directory, [...flags, 'ls-files', '--others', '--exclude-standard', '-z']);
    if (others.code !== 0) throw new Error(others.stderr.trim() || 'git ls-files failed');
    const files = others.stdout.split('\0').filter(Boolean).sort();
    if (files.length > MAX_UNTRACKED) truncated = true;
    for (const file of files.slice(0, MAX_UNTRACKED)) {
      if (diff.length > cap) { truncated = true; break; }
      // --no-index answers 1 when the files differ, which against /dev/null they always do.
      const one = await checkoutGit(c.directory, [...flags, 'diff', '--no-index', ...diffFlags, '--', '/dev/null', file]);
      if (one.code > 1) throw new Error(one.stderr.trim() || `git diff of ${file} failed`);
      diff += one.stdout;
    }
    if (diff.length > cap) {
      // Cut at the start of the file that crosses the cap, so no file is shown half.
      const cut = diff.lastIndexOf('\ndiff --git ', cap);
      diff = cut > 0 ? diff.slice(0, cut + 1) : '';
      truncated = true;
    }
    return { ...known, diff, truncated };
  } catch (e) {
    return { ...known, detail: `git could not read ${c.directory}: ${errorText(e)}` };
  }
};

/** One entry per checkout, in order; a folder git cannot read carries `detail` instead of a diff. */
export const readRunDiff = (checkouts: readonly RunCheckout[], cap = MAX_DIFF_BYTES): Promise<(FolderDiff | UnreadableFolderDiff)[]> =>
  Promise.all(checkouts.map((c) => readOne(c, cap)));
