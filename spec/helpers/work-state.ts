import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A worktree's whole state, to prove a restore byte for byte: HEAD (branch and commit), what is
// staged (the index's entries), `git status --porcelain`, and every file git does not ignore with
// its mode and SHA-256.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface WorkState {
  readonly branch: string | null;
  readonly head: string;
  readonly staged: string;
  readonly status: string;
  readonly files: Readonly<Record<string, string>>;
}

export const workState = (dir: string): WorkState => {
  const branch = (() => { try { return git(dir, 'symbolic-ref', '--short', 'HEAD').trim(); } catch { return null; } })();
  const files: Record<string, string> = {};
  for (const path of git(dir, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean).sort()) {
    let st;
    try { st = statSync(join(dir, path)); } catch { continue; } // deleted in the worktree, staged or not
    files[path] = `${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(readFileSync(join(dir, path))).digest('hex')}`;
  }
  return { branch, head: git(dir, 'rev-parse', 'HEAD').trim(), staged: git(dir, 'ls-files', '--stage'), status: git(dir, 'status', '--porcelain', '--untracked-files=all'), files };
};

/**
 * Leaves a worktree with every kind of uncommitted work: a new file staged; README.md staged and
 * changed again after (its staged and worktree texts differ); a tracked file deleted unstaged;
 * untracked text, binary and executable files in a new folder; an ignored file (not kept).
 * The repository needs README.md and gone.txt committed.
 */
export const leaveWork = (dir: string, tag: string): void => {
  writeFileSync(join(dir, 'staged.txt'), `staged by ${tag}\n`);
  writeFileSync(join(dir, 'README.md'), `# staged text ${tag}\n`);
  git(dir, 'add', 'staged.txt', 'README.md');
  writeFileSync(join(dir, 'README.md'), `# staged text ${tag}\nand an unstaged line\n`);
  rmSync(join(dir, 'gone.txt'), { force: true });
  mkdirSync(join(dir, 'new', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'new', 'deep', 'untracked.txt'), `untracked ${tag}\n`);
  writeFileSync(join(dir, 'new', 'blob.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + tag.length) % 256)));
  writeFileSync(join(dir, 'new', 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, 'new', 'run.sh'), 0o755);
  writeFileSync(join(dir, 'cache.ignored'), 'ignored: not kept\n');
};

/** files for gitRepo(): what leaveWork changes, and a .gitignore */
export const WORK_REPO = { 'README.md': '# test\n', 'gone.txt': 'to be deleted\n', '.gitignore': '*.ignored\n' };
