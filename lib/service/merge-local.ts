import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { resolve } from 'node:path';
import { decideAbandonMerge, decideRecordMerge, decideStartMerge } from '../../commands/ship.js';
import type { Decision } from '../../commands/guards.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { existsSync } from 'node:fs';
import { errorText, unreadableReason } from '../git/checkout-git.js';
import { commitAll } from '../git/secure.js';
import type { RunCheckout } from '../git/types.js';
import { planMerge, type MergedFolder, type MergeMethod } from '../git/local-merge.js';
import { applyMerge, baseTip, finishCheckout, type BuiltMerge } from '../git/merge-apply.js';
import { git } from '../git/git.js';
import { withRepoLock } from '../git/repo-lock.js';
import type { Actor } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';

// Merge locally (docs/shipping.md): one merge of a checkout at a time, decided on what is recorded.
// Every checkout the merge moves is locked (in one order) from the checks to the record, so a
// second caller sees the merge done ("nothing to merge"); MergeStarted is recorded before any ref
// moves, so a merge under way refuses another, and a restart can tell what a crash left
// (recoverMerges): the base moved to the merge (RunMerged, its files brought along) or nothing
// changed (MergeAbandoned).

const record = (core: ServiceCore, runId: string, decide: (s: RunState) => Decision) =>
  core.runs.transact(runId, (now) => (now ? decide(now) : left(notFound('run', runId))), { at: core.now().toISOString(), onStale: 'retry' });

const withCheckoutLocks = <T>(paths: readonly string[], work: () => Promise<T>): Promise<T> => {
  const sorted = [...new Set(paths.map((p) => resolve(p)))].sort();
  const from = (i: number): Promise<T> => (i === sorted.length ? work() : withRepoLock(sorted[i]!, () => from(i + 1)));
  return from(0);
};

const runWithCheckouts = (core: ServiceCore, runId: string): Outcome<RunState> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  if (!s.checkouts || s.checkouts.length === 0) return left(conflict('the run has no worktree of its own (not started yet, or archived)'));
  return right(s);
};

// Merge locally merges what the person saw in the diff, as Create pull request does: the run's
// uncommitted and new files are committed on its branch first (one step, no separate Secure work).
const commitRunWork = async (checkouts: readonly RunCheckout[], runId: string): Promise<string | null> => {
  for (const c of checkouts) {
    if (!existsSync(c.directory) || await unreadableReason(c.directory)) continue;
    try {
      await commitAll(c.directory, runId);
    } catch (e) {
      return `could not commit the run's uncommitted changes in folder ${c.folder}: ${errorText(e)}; nothing was merged`;
    }
  }
  return null;
};

const pending = (b: BuiltMerge) => ({ folder: b.c.folder, base: b.base, from: b.from, commit: b.commit });

const applyAll = async (core: ServiceCore, runId: string, built: readonly BuiltMerge[], method: MergeMethod, by: Actor): Promise<Outcome<MergedFolder[]>> => {
  const merged: MergedFolder[] = [];
  for (const b of built) {
    try {
      const m = await applyMerge(b, core.probe);
      core.probe?.('merge:checkout-updated');
      record(core, runId, (now) => decideRecordMerge(now, { ...m, method, by }));
      merged.push(m);
    } catch (e) {
      const done = merged.length > 0 ? `; already merged: ${merged.map((m) => m.folder).join(', ')}` : '; nothing was merged';
      const reason = `merging folder ${b.c.folder} failed: ${errorText(e)}${done}`;
      record(core, runId, (now) => decideAbandonMerge(now, reason));
      return left(conflict(reason));
    }
  }
  return right(merged);
};

const mergeLocked = async (core: ServiceCore, runId: string, method: MergeMethod, runUrl: string, by: Actor): Promise<Outcome<{ run: RunDetail; merged: MergedFolder[] }>> => {
  const found = runWithCheckouts(core, runId);
  if (isLeft(found)) return found;
  const s = found.right;
  if (s.merging) return left(conflict(`a merge of run ${runId} is under way (started ${s.merging.at}); wait for it to end`));
  const committed = await commitRunWork(s.checkouts!, runId);
  if (committed) return left(conflict(committed));
  const built = await planMerge(s.checkouts!, method, `${s.title}\n\nMerged from svc run ${runId} (${runUrl}).`);
  if (isLeft(built)) return left(conflict(built.left));
  core.probe?.('merge:before-record');
  const started = record(core, runId, (now) => decideStartMerge(now, { method, folders: built.right.map(pending), by }));
  if (isLeft(started)) return started;
  core.probe?.('merge:recorded');
  const merged = await applyAll(core, runId, built.right, method, by);
  if (isLeft(merged)) return merged;
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), merged: merged.right });
};

export const mergeRun = async (core: ServiceCore, runId: string, method: MergeMethod, runUrl: string, by: Actor): Promise<Outcome<{ run: RunDetail; merged: MergedFolder[] }>> => {
  const found = runWithCheckouts(core, runId);
  if (isLeft(found)) return found;
  return withCheckoutLocks(found.right.checkouts!.map((c) => c.path), () => mergeLocked(core, runId, method, runUrl, by));
};

const holds = async (dir: string, commit: string, tip: string | null): Promise<boolean> =>
  tip !== null && (tip === commit || (await git(dir, ['merge-base', '--is-ancestor', commit, tip])).code === 0);

// What a crash left of one run's merge: each pending folder whose base holds the merge commit is
// recorded merged (its files brought to it first, if the crash came before they followed); the
// merge then ends for the rest, which were not touched.
const recoverOne = async (core: ServiceCore, runId: string): Promise<void> => {
  const m = core.runs.get(runId)?.merging;
  if (!m) return;
  const untouched: string[] = [];
  for (const f of m.folders) {
    const c = core.runs.get(runId)?.checkouts?.find((x) => x.folder === f.folder);
    const tip = c ? await baseTip(c.path, f.base) : null;
    if (!c || !(await holds(c.path, f.commit, tip))) { untouched.push(f.folder); continue; }
    if (tip === f.commit && !(await finishCheckout(c.path, f.from, f.commit))) core.logs.write(runId, 'service', `folder ${f.folder}: ${f.base} holds the merge, but the checkout's files changed meanwhile and were left as they are`);
    record(core, runId, (now) => decideRecordMerge(now, { folder: f.folder, method: m.method, base: f.base, commit: f.commit, by: m.by }));
  }
  if (untouched.length > 0) record(core, runId, (now) => decideAbandonMerge(now, `the service stopped before moving ${untouched.map((f) => `folder ${f}`).join(', ')}; nothing there was changed`));
};

/** On start: merges a crash interrupted are recorded as what they did. */
export const recoverMerges = async (core: ServiceCore): Promise<void> => {
  for (const s of [...core.runs.all()].filter((r) => r.merging)) {
    const paths = (s.checkouts ?? []).map((c) => c.path);
    try {
      await withCheckoutLocks(paths, () => recoverOne(core, s.runId));
    } catch (e) {
      console.error(`svc: could not settle the interrupted merge of run ${s.runId}`, e);
    }
  }
};
