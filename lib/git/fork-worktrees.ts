import { restoreSnapshot, snapshotBase } from './snapshot.js';
import type { ProjectFolder, RunCheckout } from './types.js';
import { createRunWorktrees } from './worktrees.js';

// A fork's worktrees: its branch svc/<forkId> at each snapshot's parent (the source's branch as
// the step left it), then the snapshot's uncommitted state restored on top, so `git status` there
// shows what it showed in the source. Safe to run again after a crash at any point: the branch and
// worktree are reused and the restore writes the whole snapshot state again.

export interface ForkSnapshot {
  readonly folder: string;
  readonly commit: string;
  /** the source's base: the fork's diffs compare against the same commit */
  readonly base: string;
}

export const createForkWorktrees = async (
  home: string, runId: string, folders: readonly ProjectFolder[], snapshots: readonly ForkSnapshot[], probe?: (point: string) => void,
): Promise<RunCheckout[]> => {
  const starts = new Map<string, string>();
  const used: ProjectFolder[] = [];
  for (const k of snapshots) {
    const f = folders.find((x) => x.name === k.folder);
    if (!f) throw new Error(`folder ${k.folder} of the snapshot is no longer in the project`);
    starts.set(f.name, await snapshotBase(f.path, k.commit));
    used.push(f);
  }
  const checkouts = await createRunWorktrees(home, runId, used, starts);
  probe?.('fork:branch-made');
  const out: RunCheckout[] = [];
  for (const c of checkouts) {
    const k = snapshots.find((x) => x.folder === c.folder)!;
    await restoreSnapshot(k.commit, c.directory);
    out.push({ ...c, base: k.base });
  }
  return out;
};
