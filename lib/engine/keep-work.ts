import { decideRecordKeptWork, decideRecordRemoved, decideRecordRestored } from '../../commands/keep-work.js';
import type { RunState } from '../../projections/run-state.js';
import type { EngineContext } from './context.js';

// An archived run's worktrees go, and an unarchived run's come back, one recorded step at a time,
// so a restart after a crash anywhere finishes the job from the journal (commands/keep-work.ts):
// Keep (snapshot each folder, record WorkKept) before Remove (delete the folders, record
// WorktreesRemoved); Restore (make them again from the kept work, record WorktreesRestored).

export type FolderEffect = 'Keep' | 'Remove' | 'Restore';

/** what the run's folders need next, read off its state alone */
export const folderEffect = (s: RunState): FolderEffect | null => {
  // once its work is kept the folder goes, even if unarchived meanwhile: it may be half removed
  if (s.checkouts && s.keptWork) return 'Remove';
  // a follow-up works in the folders of the run it continues: they are that run's to keep
  if (s.archived && s.checkouts) return s.continues ? 'Remove' : 'Keep';
  if (!s.archived && !s.checkouts && s.keptWork && s.removedCheckouts) return 'Restore';
  return null;
};

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const keep = async (ctx: EngineContext, s: RunState): Promise<void> => {
  const checkouts = s.checkouts ?? [];
  try {
    const kept = await ctx.deps.worktrees.keep(s.runId, checkouts);
    ctx.deps.probe?.('archive:kept-ref');
    ctx.apply(s.runId, (r) => decideRecordKeptWork(r, kept));
    ctx.deps.probe?.('archive:kept');
  } catch (err) {
    // nothing is removed unless it was kept first: the worktrees stay, and a restart tries again
    ctx.log(s.runId, `could not keep the worktrees' uncommitted work, so they stay where they are: ${reason(err)}`);
  }
};

const remove = async (ctx: EngineContext, s: RunState): Promise<void> => {
  try {
    await ctx.deps.worktrees.remove(s.runId, s.checkouts ?? []);
    ctx.deps.probe?.('archive:removed');
    ctx.apply(s.runId, decideRecordRemoved);
  } catch (err) {
    ctx.log(s.runId, `could not remove the worktrees: ${reason(err)}`);
  }
};

const restore = async (ctx: EngineContext, s: RunState): Promise<void> => {
  try {
    const checkouts = await ctx.deps.worktrees.restore(s.runId, s.removedCheckouts ?? [], s.keptWork ?? []);
    ctx.deps.probe?.('unarchive:restored');
    ctx.apply(s.runId, (r) => decideRecordRestored(r, checkouts));
  } catch (err) {
    ctx.log(s.runId, `could not restore the worktrees (their work stays kept under refs/svc/kept/${s.runId}): ${reason(err)}`);
  }
};

export const moveFolders = (ctx: EngineContext, s: RunState, effect: FolderEffect): Promise<void> =>
  effect === 'Keep' ? keep(ctx, s) : effect === 'Remove' ? remove(ctx, s) : restore(ctx, s);
