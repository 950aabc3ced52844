import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutGit } from './checkout-git.js';

// Where a line of a file went since a review comment was written on it, as a code host follows
// a comment: the file as it was then is kept as a blob in the checkout's repository, and the
// diff from it to the file as it is now says where each unchanged line moved and which lines
// changed or went away. Line numbers alone would call a comment outdated as soon as a line is
// inserted above it.

/** the file's content now, kept as a blob (`git hash-object -w`); null when it cannot be read */
export const keepBlob = async (directory: string, path: string): Promise<string | null> => {
  const r = await checkoutGit(directory, ['hash-object', '-w', '--', path]);
  return r.code === 0 ? r.stdout.trim() || null : null;
};

interface Hunk { readonly from: number; readonly count: number; readonly added: number }

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

const hunksOf = (diff: string): Hunk[] =>
  diff.split('\n').flatMap((l) => {
    const m = HUNK.exec(l);
    return m ? [{ from: Number(m[1]), count: m[2] === undefined ? 1 : Number(m[2]), added: m[3] === undefined ? 1 : Number(m[3]) }] : [];
  });

/** the line `line` of the old file now stands at, or null when it changed or went away */
export const movedLine = (hunks: readonly Hunk[], line: number): number | null => {
  let shift = 0;
  for (const h of hunks) {
    // with no context, a hunk that removes nothing inserts after line `from`
    const last = h.count === 0 ? h.from : h.from + h.count - 1;
    if (h.count > 0 && line >= h.from && line <= last) return null;
    if (line > last) shift += h.added - h.count;
  }
  return line + shift;
};

export type LineMoves = (line: number) => number | null;

/** how the kept blob's lines moved to the file `path` as it is now; null when either cannot be read */
export const lineMoves = async (directory: string, blob: string, path: string): Promise<LineMoves | null> => {
  const then = await checkoutGit(directory, ['cat-file', 'blob', blob]);
  if (then.code !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'svc-lines-'));
  try {
    const old = join(dir, 'then');
    writeFileSync(old, then.stdout, { mode: 0o600 });
    const d = await checkoutGit(directory, ['--no-pager', 'diff', '--no-index', '--no-color', '--no-ext-diff', '--no-textconv', '-U0', '--', old, path]);
    if (d.code > 1) return null;
    const hunks = hunksOf(d.stdout);
    return (line) => movedLine(hunks, line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
