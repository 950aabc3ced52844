import { decideRecordSnapshots } from '../../commands/snapshots.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { snapshotRef } from '../git/snapshot.js';
import type { EngineContext } from './context.js';

// A snapshot of each of the run's worktrees at a step end, taken before the next step starts (the
// engine runs nothing else for the run meanwhile). A failure is recorded and the run goes on: a
// snapshot is for forking later, never a reason to stop the work.

export const takeStepSnapshots = async (ctx: EngineContext, s: RunState, due: { stepId: string; node: string; at: number }): Promise<void> => {
  const ref = snapshotRef(s.runId, due.at);
  const records: RunEvent[] = [];
  for (const c of s.checkouts ?? []) {
    const base = { stepId: due.stepId, node: due.node, at: due.at, folder: c.folder };
    try {
      records.push({ type: 'SnapshotTaken', data: { ...base, commit: await ctx.deps.snapshots.take(c.directory, ref), ref } });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.log(s.runId, `could not snapshot folder ${c.folder} after step ${due.node}: ${reason}`);
      records.push({ type: 'SnapshotFailed', data: { ...base, reason: reason.slice(0, 1000) } });
    }
  }
  // the step's work (branch and snapshots) shows in the user's repository from each step end,
  // before it is recorded: whatever reads the record finds the refs there
  try {
    await ctx.deps.snapshots.publish?.(s.runId, s.checkouts ?? []);
  } catch (err) {
    ctx.log(s.runId, `could not bring the run's refs into the project's repository after step ${due.node}: ${err instanceof Error ? err.message : String(err)}`);
  }
  ctx.apply(s.runId, (r) => decideRecordSnapshots(r, { at: due.at, records }));
};

/** the repositories a run's snapshot refs live in: those of its checkouts, and its project's folders */
const snapshotRepos = (s: RunState, projectFolders: readonly { path: string }[]): string[] =>
  [...new Set((s.checkouts ?? s.continues?.checkouts ?? []).map((c) => c.path).concat(projectFolders.map((f) => f.path)))];

/** Archiving lets go of the run's snapshots (its hidden refs), and of nothing else in the repository. */
export const dropSnapshots = async (ctx: EngineContext, s: RunState): Promise<void> => {
  try {
    await ctx.deps.snapshots.drop(s.runId, snapshotRepos(s, ctx.deps.project(s.projectId)?.folders ?? []));
  } catch (err) {
    ctx.log(s.runId, `could not delete the snapshot refs: ${String(err)}`);
  }
};
