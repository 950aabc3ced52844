import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git, gitOk, NO_HOOKS } from './git.js';

// A snapshot is the whole state of a worktree at a step's end, as one commit, built WITHOUT
// touching the run's branch, HEAD, index or files: git writes into a temporary index file only.
// Its shape is git stash's: the commit's tree is the worktree (tracked changes and untracked files,
// .gitignore'd files excluded), its first parent is HEAD, its second parent a commit whose tree is
// the index (what was staged). A hidden ref keeps it from git's garbage collection.

// commit-tree needs an identity; the user's may be unset, and a snapshot is ours, not theirs.
const IDENTITY = { GIT_AUTHOR_NAME: 'svc', GIT_AUTHOR_EMAIL: 'svc@localhost', GIT_COMMITTER_NAME: 'svc', GIT_COMMITTER_EMAIL: 'svc@localhost' };

export const SNAPSHOT_REFS = 'refs/svc/snapshots';

/** `refs/svc/snapshots/<runId>/<seq>`: seq is the step end's in the run's journal */
export const snapshotRef = (runId: string, seq: number): string => `${SNAPSHOT_REFS}/${runId}/${seq}`;

const withTempIndex = async <T>(work: (env: Record<string, string>) => Promise<T>): Promise<T> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-snapshot-'));
  try {
    return await work({ ...IDENTITY, GIT_INDEX_FILE: join(dir, 'index') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

// Seeded from a copy of the real index, so what is staged is kept and git's stat cache spares it
// hashing every unchanged file again (a 10,000-file worktree costs a fraction of a second).
const seedIndex = async (worktree: string, realIndex: string, env: Record<string, string>): Promise<void> => {
  const real = resolve(worktree, realIndex);
  if (existsSync(real)) copyFileSync(real, env.GIT_INDEX_FILE!);
  else await gitOk(worktree, ['read-tree', 'HEAD'], { env });
};

// HEAD's commit and where the real index is, in one git call (a worktree with no commit fails here)
const headAndIndex = async (worktree: string): Promise<{ head: string; index: string }> => {
  const [head, index] = (await gitOk(worktree, ['rev-parse', '--git-path', 'index', '--verify', 'HEAD^{commit}'])).trim().split('\n').reverse();
  return { head: head!, index: index! };
};

/** The worktree's state as a commit under `ref`; the worktree, its index, HEAD and branch are left as they were. */
export const takeSnapshot = async (worktree: string, ref: string): Promise<string> =>
  withTempIndex(async (env) => {
    const { head, index: realIndex } = await headAndIndex(worktree);
    await seedIndex(worktree, realIndex, env);
    // an index with conflicts has no tree: the staged side is then HEAD's
    const staged = await git(worktree, ['write-tree'], { env });
    const indexTree = staged.code === 0 ? staged.stdout.trim() : (await gitOk(worktree, ['rev-parse', 'HEAD^{tree}'])).trim();
    await gitOk(worktree, [...NO_HOOKS, 'add', '-A', '--', '.'], { env });
    const tree = (await gitOk(worktree, ['write-tree'], { env })).trim();
    const index = (await gitOk(worktree, ['commit-tree', indexTree, '-p', head, '-m', 'svc snapshot: index'], { env })).trim();
    const commit = (await gitOk(worktree, ['commit-tree', tree, '-p', head, '-p', index, '-m', `svc snapshot: ${ref}`], { env })).trim();
    await gitOk(worktree, [...NO_HOOKS, 'update-ref', ref, commit]);
    return commit;
  });

/** The commit a new worktree is made at, to restore a snapshot on: its first parent (the branch's commit then). */
export const snapshotBase = async (repo: string, commit: string): Promise<string> =>
  (await gitOk(repo, ['rev-parse', '--verify', `${commit}^1^{commit}`])).trim();

/**
 * Restores a snapshot into a worktree checked out at snapshotBase(commit): the files byte for byte
 * (tracked, changed, untracked; deleted ones deleted) and the index as it was staged. Safe to run
 * again on a half-restored worktree: every step writes the snapshot's state, whatever was there.
 */
export const restoreSnapshot = async (commit: string, worktree: string): Promise<void> => {
  const deleted = await gitOk(worktree, ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=D', 'HEAD', commit]);
  for (const path of deleted.split('\0').filter(Boolean)) rmSync(join(worktree, path), { force: true });
  await withTempIndex(async (env) => {
    await gitOk(worktree, ['read-tree', `${commit}^{tree}`], { env });
    await gitOk(worktree, ['checkout-index', '--all', '--force'], { env });
  });
  await gitOk(worktree, ['read-tree', `${commit}^2^{tree}`]);
  await git(worktree, ['update-index', '-q', '--refresh']);
};

/** Deletes a run's snapshot refs in a repository, and nothing else. */
export const deleteSnapshotRefs = async (repo: string, runId: string): Promise<number> => {
  const refs = (await gitOk(repo, ['for-each-ref', '--format=%(refname)', `${SNAPSHOT_REFS}/${runId}/`])).split('\n').filter(Boolean);
  for (const ref of refs) await gitOk(repo, [...NO_HOOKS, 'update-ref', '-d', ref]);
  return refs.length;
};
