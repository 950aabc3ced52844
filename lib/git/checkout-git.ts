import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { git, gitReason, type GitOptions, type GitResult } from './git.js';
import { samePath } from './worktree-list.js';
import { withoutCredentials } from './remote-url.js';

// Git run inside a run's checkout. The ceiling stops git from walking up to some enclosing
// repository when the worktree was deleted or never made: it must answer for this folder or fail.
export const checkoutGit = (directory: string, args: readonly string[], opts: GitOptions = {}): Promise<GitResult> =>
  git(directory, args, { ...opts, env: { GIT_CEILING_DIRECTORIES: dirname(directory), ...opts.env } });

/** Why git cannot work in this checkout, or null when it can. */
export const unreadableReason = async (directory: string): Promise<string | null> => {
  if (!existsSync(directory)) return `the worktree folder ${directory} does not exist`;
  const top = await checkoutGit(directory, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return `git cannot read ${directory}: ${gitReason(top)}`;
  if (!samePath(top.stdout.trim(), directory)) return `${directory} is not the top of a git worktree`;
  return null;
};

/** The checkout's current branch, null when HEAD is detached. */
export const headBranch = async (directory: string): Promise<string | null> => {
  const r = await checkoutGit(directory, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
};

export const refExists = async (directory: string, ref: string): Promise<boolean> =>
  (await checkoutGit(directory, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).code === 0;

export const errorText = (e: unknown): string => withoutCredentials(e instanceof Error ? e.message : String(e));
