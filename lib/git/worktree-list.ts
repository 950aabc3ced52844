import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { git, gitOk } from './git.js';

// Reading a repository's registered worktrees (`git worktree list --porcelain`), so creation and
// removal can tell "ours, already there" from "something else in the way".

export interface RegisteredWorktree {
  readonly path: string;
  readonly branch: string | null;
  /** the lock reason, '' when locked without one, null when not locked */
  readonly locked: string | null;
  readonly prunable: boolean;
}

const parseBlock = (block: string): RegisteredWorktree | null => {
  const lines = block.split('\n');
  const first = lines[0] ?? '';
  if (!first.startsWith('worktree ')) return null;
  const value = (key: string): string | null => {
    const line = lines.find((l) => l === key || l.startsWith(`${key} `));
    if (line === undefined) return null;
    return line === key ? '' : line.slice(key.length + 1);
  };
  const ref = value('branch');
  return {
    path: first.slice('worktree '.length),
    branch: ref === null ? null : ref.replace(/^refs\/heads\//, ''),
    locked: value('locked'),
    prunable: value('prunable') !== null,
  };
};

export const listWorktrees = async (repo: string): Promise<RegisteredWorktree[]> => {
  const out = await gitOk(repo, ['worktree', 'list', '--porcelain']);
  return out
    .split(/\n\n+/)
    .map((b) => parseBlock(b.trim()))
    .filter((w): w is RegisteredWorktree => w !== null);
};

// Git may record a worktree through symlinks resolved or not (macOS /var vs /private/var).
const canonical = (p: string): string => {
  const abs = resolve(p);
  return existsSync(abs) ? realpathSync(abs) : abs;
};

export const samePath = (a: string, b: string): boolean => a === b || canonical(a) === canonical(b);

export const findWorktree = async (repo: string, dir: string): Promise<RegisteredWorktree | null> =>
  (await listWorktrees(repo)).find((w) => samePath(w.path, dir)) ?? null;

// Forgets registrations whose folders are gone, so a crashed or deleted worktree can be re-added.
export const pruneWorktrees = async (repo: string): Promise<void> => {
  await git(repo, ['worktree', 'prune']);
};
