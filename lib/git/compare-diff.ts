import { existsSync } from 'node:fs';
import { parse } from 'diff2html';
import { git, gitReason } from './git.js';
import { readRunDiff } from './run-diff.js';
import type { RunCheckout } from './types.js';

// Two runs' changes to one project folder, against one base, file by file: what Compare shows.
// Each run's branch starts at its own base commit; the diffs are read against the merge-base of
// the two (the same commit when both runs started from it, as sibling attempts do), so a file one
// run did not touch shows no change on its side. Read only, like the run's own diff.

export interface FileSides {
  readonly path: string;
  /** the file's diff in run a, or null when a left it as the base has it */
  readonly a: string | null;
  readonly b: string | null;
}

export interface FolderComparison {
  readonly folder: string;
  /** the commit both diffs are read against */
  readonly base: string;
  /** `same`: both runs started from that commit; `merge-base`: from different ones, and this is where their histories meet */
  readonly baseKind: 'same' | 'merge-base';
  /** files both runs changed first, then the others, by path within each */
  readonly files: readonly FileSides[];
  readonly truncated: boolean;
  /** why a side could not be read (its worktree is gone: only its branch's commits are compared) */
  readonly notes: readonly string[];
}

const mergeBase = async (repo: string, a: string, b: string): Promise<string> => {
  if (a === b) return a;
  const r = await git(repo, ['merge-base', a, b]);
  if (r.code !== 0) throw new Error(`git found no common base of ${a.slice(0, 12)} and ${b.slice(0, 12)} in ${repo}: ${gitReason(r)}`);
  return r.stdout.trim();
};

/** a diff's text cut into one piece per file, by the file's name */
export const diffByFile = (diff: string): Map<string, string> => {
  const out = new Map<string, string>();
  for (const piece of diff.split(/(?=^diff --git )/m)) {
    if (!piece.startsWith('diff --git ')) continue;
    const f = parse(piece)[0];
    if (f) out.set(f.newName === '/dev/null' ? f.oldName : f.newName, piece);
  }
  return out;
};

/** a side of a comparison: a run's checkout, and what an archive kept of it when its worktree is gone */
export type ComparedCheckout = RunCheckout & { readonly kept?: string };

const committedSide = async (c: ComparedCheckout, base: string): Promise<{ diff: string; truncated: boolean; note?: string }> => {
  // the kept snapshot's tree is the worktree as it was (uncommitted and untracked files included)
  const to = c.kept ?? c.branch;
  const r = await git(c.path, ['--no-pager', 'diff', '--no-color', '--no-ext-diff', '--src-prefix=a/', '--dst-prefix=b/', base, to, '--']);
  if (r.code !== 0) return { diff: '', truncated: false, note: `${c.branch}: the worktree is gone and git could not read ${c.kept ? 'the work kept of it' : 'the branch'}: ${gitReason(r)}` };
  return { diff: r.stdout, truncated: false, note: c.kept ? `${c.branch}: the worktree is archived; its work as kept when archived is compared` : `${c.branch}: the worktree is gone; only the branch's commits are compared` };
};

// A run being archived is read from what the archive kept (its folder may be half removed); one
// whose worktree is gone otherwise, from its branch.
const sideDiff = async (c: ComparedCheckout, base: string): Promise<{ diff: string; truncated: boolean; note?: string }> => {
  if (c.kept || !existsSync(c.directory)) return committedSide(c, base);
  const [one] = await readRunDiff([{ ...c, base }]);
  if (!one || 'detail' in one) return { diff: '', truncated: false, note: `${c.branch}: ${one?.detail ?? 'not read'}` };
  return { diff: one.diff, truncated: one.truncated };
};

const ordered = (a: Map<string, string>, b: Map<string, string>): FileSides[] => {
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const sides = paths.map((path) => ({ path, a: a.get(path) ?? null, b: b.get(path) ?? null }));
  return [...sides.filter((f) => f.a !== null && f.b !== null), ...sides.filter((f) => f.a === null || f.b === null)];
};

export const compareFolder = async (a: ComparedCheckout, b: ComparedCheckout): Promise<FolderComparison> => {
  const base = await mergeBase(a.path, a.base, b.base);
  const [da, db] = await Promise.all([sideDiff(a, base), sideDiff(b, base)]);
  return {
    folder: a.folder, base, baseKind: a.base === b.base ? 'same' : 'merge-base',
    files: ordered(diffByFile(da.diff), diffByFile(db.diff)), truncated: da.truncated || db.truncated,
    notes: [da.note, db.note].filter((n): n is string => n !== undefined),
  };
};
