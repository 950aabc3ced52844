import { existsSync } from 'node:fs';
import type { KeptWork } from '../../journal/run-events.js';
import { git, gitOk, NO_HOOKS } from './git.js';
import { restoreSnapshot, snapshotBase, takeSnapshot } from './snapshot.js';
import type { RunCheckout } from './types.js';
import { createRunWorktrees } from './worktrees.js';
import { publishCheckouts } from './run-clones.js';

// Removing a run's worktree never removes work: before it goes, its uncommitted state (staged,
// unstaged, untracked; .gitignore'd files excluded) is kept as a snapshot commit (lib/git/snapshot.ts)
// under refs/svc/kept/<runId>/<n>, a ref archiving never deletes; an unarchive makes the worktree
// again on the same branch and HEAD and restores that state, the index included, byte for byte.

export const KEPT_REFS = 'refs/svc/kept';

/** `refs/svc/kept/<runId>/<n>`: n is the checkout's place in the run (a folder name may not be a valid ref part) */
export const keptRef = (runId: string, n: number): string => `${KEPT_REFS}/${runId}/${n}`;

export interface PendingChanges {
  /** paths git status lists: each staged, unstaged, untracked or conflicted path once */
  readonly paths: number;
  readonly staged: number;
  readonly unstaged: number;
  readonly untracked: number;
}

/** what a worktree holds that no commit does (read only: --no-optional-locks) */
export const pendingChanges = async (directory: string): Promise<PendingChanges> => {
  const out = await gitOk(directory, ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all']);
  const lines = out.split('\n').filter((l) => l.length > 3);
  const untracked = lines.filter((l) => l.startsWith('??')).length;
  const tracked = lines.filter((l) => !l.startsWith('??'));
  return { paths: lines.length, untracked, staged: tracked.filter((l) => l[0] !== ' ').length, unstaged: tracked.filter((l) => l[1] !== ' ').length };
};

const headBranch = async (directory: string): Promise<string | null> => {
  const r = await git(directory, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
};

/** Keeps each worktree's state under its kept ref; a folder already gone has nothing to keep. */
export const keepWork = async (runId: string, checkouts: readonly RunCheckout[]): Promise<KeptWork[]> => {
  const kept: KeptWork[] = [];
  for (const [n, c] of checkouts.entries()) {
    if (!existsSync(c.directory)) continue;
    const ref = keptRef(runId, n);
    const changes = (await pendingChanges(c.directory)).paths;
    kept.push({ folder: c.folder, ref, head: await headBranch(c.directory), changes, commit: await takeSnapshot(c.directory, ref) });
  }
  // a run's own repository goes next: its kept refs (and branch) must be in the user's first
  await publishCheckouts(runId, checkouts);
  return kept;
};

// The worktree's HEAD as it was: the run's branch (worktree add checks it out), another branch,
// or detached at the snapshot's parent. Only when it differs, so a second pass leaves it be.
const placeHead = async (directory: string, k: KeptWork, base: string): Promise<void> => {
  const now = await headBranch(directory);
  if (k.head === now) return;
  const args = k.head === null ? ['checkout', '--quiet', '--detach', base] : ['checkout', '--quiet', k.head];
  await gitOk(directory, [...NO_HOOKS, ...args]);
};

/**
 * Makes the run's worktrees again where they were and restores what keepWork kept: safe to run
 * again after a crash at any point (the worktree is reused, the restore writes the whole state).
 */
export const restoreWork = async (home: string, runId: string, removed: readonly RunCheckout[], kept: readonly KeptWork[], probe?: (point: string) => void): Promise<RunCheckout[]> => {
  const out: RunCheckout[] = [];
  for (const c of removed) {
    const k = kept.find((x) => x.folder === c.folder);
    // a branch deleted meanwhile is made again at the commit the work was kept on
    const base = k ? await snapshotBase(c.path, k.commit) : undefined;
    // made again as what it was: a run's own repository, or a linked worktree for an older run
    const [made] = await createRunWorktrees(home, runId, [{ name: c.folder, path: c.path }], base ? new Map([[c.folder, base]]) : undefined, c.clone ? 'clone' : 'worktree');
    probe?.('unarchive:worktree-made');
    if (k && base) {
      await placeHead(made!.directory, k, base);
      await restoreSnapshot(k.commit, made!.directory);
    }
    out.push({ ...c, directory: made!.directory, branch: made!.branch });
  }
  return out;
};

/** the .gitignore'd paths git status lists (a whole ignored folder once): a snapshot leaves them out */
export const ignoredPaths = async (directory: string): Promise<number> => {
  const out = await gitOk(directory, ['--no-optional-locks', 'status', '--porcelain', '--ignored', '--untracked-files=normal']);
  return out.split('\n').filter((l) => l.startsWith('!!')).length;
};
