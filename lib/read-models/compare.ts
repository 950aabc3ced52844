import { left, right } from 'fp-ts/lib/Either.js';
import { invalid, notFound, type Outcome } from '../../commands/refusal.js';
import type { Attempt } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { recordedCostUsd } from '../../projections/run-usage.js';
import { compareFolder, type ComparedCheckout, type FolderComparison } from '../git/compare-diff.js';
import type { Standing } from '../../domain/runs.js';
import { detailOf, summaryOf, type RunViewSource } from './run-detail.js';

// GET /api/compare?a=&b=: two runs of one project side by side — where each stands, how long it
// ran, what it cost (once usage is recorded), its agent, and both diffs against one base.

export interface ComparedRun {
  readonly runId: string;
  readonly title: string;
  readonly standing: Standing;
  readonly outcome: string | null;
  readonly harness: string | null;
  readonly model: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  /** from its first start to its end; null before it starts or while it goes */
  readonly durationMs: number | null;
  /** null: no cost recorded for the run */
  readonly costUsd: number | null;
  readonly archived: boolean;
  readonly attempt: Attempt | null;
  /** this attempt was kept over the others of its group */
  readonly kept: boolean;
}

export interface Comparison {
  readonly a: ComparedRun;
  readonly b: ComparedRun;
  /** the same group of attempts: "Keep this one" applies */
  readonly sameGroup: boolean;
  readonly folders: readonly FolderComparison[];
  /** folders only one of them has a worktree for (or neither has yet) */
  readonly notes: readonly string[];
}

const compared = (core: RunViewSource, s: RunState): ComparedRun => {
  const detail = detailOf(core, s);
  const { startedAt, endedAt: lastEnd } = s.views.board;
  const endedAt = s.lifecycle === 'ended' ? lastEnd ?? null : null;
  return {
    runId: s.runId, title: s.title, standing: summaryOf(core, s).standing, outcome: detail.outcome ?? null,
    harness: s.lastHarness ?? s.harnessOverride ?? s.harness ?? s.workflow.stepDefaults.harness ?? null, model: s.harnessOverride ? null : s.model ?? null,
    startedAt: startedAt ?? null, endedAt,
    durationMs: startedAt && endedAt ? Date.parse(endedAt) - Date.parse(startedAt) : null,
    costUsd: recordedCostUsd(s), archived: s.archived, attempt: s.attempt ?? null, kept: s.kept !== undefined,
  };
};

// an archived run's worktrees are going or gone: compare-diff reads the work the archive kept of
// them (or their branches' commits, for an archive from before work was kept). keptWork is cleared
// when an unarchive restores the folders, so while it is there a folder is never read half removed.
const checkoutsOf = (s: RunState): readonly ComparedCheckout[] => {
  const checkouts = s.checkouts ?? s.continues?.checkouts ?? s.removedCheckouts ?? [];
  return checkouts.map((c) => {
    const kept = s.continues ? undefined : s.keptWork?.find((k) => k.folder === c.folder)?.commit;
    return kept ? { ...c, kept } : c;
  });
};

const why = (s: RunState): string => (s.lifecycle === 'created' || s.lifecycle === 'queued' ? 'has not started' : 'has no checkout of it');

export const compareRuns = async (core: RunViewSource, aId: string, bId: string): Promise<Outcome<Comparison>> => {
  const a = core.runs.get(aId);
  if (!a) return left(notFound('run', aId));
  const b = core.runs.get(bId);
  if (!b) return left(notFound('run', bId));
  if (aId === bId) return left(invalid('a and b are the same run: compare takes two different runs'));
  if (a.projectId !== b.projectId) return left(invalid(`runs ${aId} and ${bId} are of different projects (${a.projectId}, ${b.projectId}): compare takes two runs of one project`));
  const ca = checkoutsOf(a);
  const cb = new Map(checkoutsOf(b).map((c) => [c.folder, c]));
  const notes: string[] = [];
  const folders: FolderComparison[] = [];
  for (const c of ca) {
    const other = cb.get(c.folder);
    if (!other) notes.push(`folder ${c.folder}: run ${bId} ${why(b)}`);
    if (!other) continue;
    try {
      folders.push(await compareFolder(c, other));
    } catch (e) {
      notes.push(`folder ${c.folder}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (const c of cb.values()) if (!ca.some((x) => x.folder === c.folder)) notes.push(`folder ${c.folder}: run ${aId} ${why(a)}`);
  if (ca.length === 0 && cb.size === 0) notes.push('neither run has a worktree yet: there is no diff to compare');
  return right({ a: compared(core, a), b: compared(core, b), sameGroup: !!a.attempt && a.attempt.group === b.attempt?.group, folders, notes });
};
