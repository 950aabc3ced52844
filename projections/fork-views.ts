import type { ForkLink } from '../domain/runs.js';
import type { RunDetail } from './run-shapes.js';
import type { RunState } from './run-state.js';

// What a run's detail says of forks: the step end it was forked from, and the step ends it can be
// forked at (every folder snapshotted, and a next step to run; none once archived, as archiving
// drops the snapshots).

const forkedFromLink = (s: RunState): ForkLink | undefined => {
  const f = s.forkedFrom;
  return f ? { run: f.run, at: f.at, step: f.step, ...(f.note !== undefined ? { note: f.note } : {}) } : undefined;
};

const folderCount = (s: RunState): number => (s.checkouts ?? s.continues?.checkouts ?? []).length;

export const forkable = (s: RunState): NonNullable<RunDetail['forkable']> =>
  s.archived || folderCount(s) === 0 ? [] : (s.stepEnds ?? [])
    .filter((e) => e.snapshots.length >= folderCount(s) && e.goesOn !== false)
    .map((e) => ({ at: e.at, stepId: e.stepId, node: e.node, outcome: e.outcome }));

export const forkViews = (s: RunState): Pick<RunDetail, 'forkedFrom' | 'forkable'> => {
  const from = forkedFromLink(s);
  const ends = forkable(s);
  return { ...(from ? { forkedFrom: from } : {}), ...(ends.length ? { forkable: ends } : {}) };
};
