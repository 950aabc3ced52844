import type { Journal } from '../../journal/journal.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';
import type { Store } from '../../journal/store.js';
import { applyStored, createdState, type RunState } from '../../projections/run-state.js';
import { EventStream, type StreamKind } from './event-stream.js';
import { isSvcPauseReason } from '../../domain/pause-reasons.js';

// Every run's state in memory, up to date on each append, and snapshotted in the same LMDB
// transaction as the events it folds. A restart reads the snapshots, folding only a tail that a
// snapshot does not cover. A change to RunState's shape bumps the version and adds an upcast from
// the one before (RUN_UPCASTS), so old snapshots are carried forward, not refolded.

// 5: runs keep their latest agent session (lastSession), which a follow-up resumes
// 6: runs keep their local merges and their latest update from base per folder (shipping)
// 7: attempts (sibling runs started together), which one was kept, and the checkouts an archive removed
// 7 (second branch): runs keep their usage (UsageRecorded), budget and pause reason
// 8: both sevens together
// 9: runs keep the pull request loop of a watching deliver step (prWatch)
// 10: quota waits (a step's quota), the quota hits in a row, and the queue holding a run for a harness's window
// 10 (second branch): step ends with their worktree snapshots (stepEnds, snapshotDue) and forks (forkedFrom)
// 11: both tens together
// 11 (second branch): and their usage by day, harness and model (usageCells), which the usage read model starts from
// 12: both elevens together
// 12 onward: each bump comes with its upcast from the version before, below.
// 13: the work an archive kept of each folder (keptWork), until an unarchive restores it; why a step's cost is unknown (usage.steps[].unknownWhy)
// 14: who paused a paused run (pausedBy): svc's own pauses need a person (projections/needs-you.ts)
// 15: the latest agent or command step's sandbox (sandbox: docs/sandbox.md)
// 16: the decide state and the views apart: what only views read moved under `views`
//     (projections/run-state.ts), and the decide state keeps the reviews' ids (reviewIds)
const SNAPSHOT_VERSION = 16;

// A run paused at version 13 kept no `by`; svc's own pauses say their cause at the start of their
// reason, a person's pause does not, so that is what is known.
const pausedBy13 = (state: unknown): unknown => {
  const s = state as { paused?: boolean; pauseReason?: string };
  const bySvc = s.paused === true && typeof s.pauseReason === 'string' && isSvcPauseReason(s.pauseReason);
  return bySvc ? { ...s, pausedBy: 'engine' } : s;
};

type Flat15 = Record<string, unknown> & { reviews?: readonly { reviewId: string }[] };
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

// A 15 kept every field flat; the fields no decide reads go under `views`, each in its part.
const views15 = (state: unknown): unknown => {
  const { createdAt, startedBy, restartOf, startedAt, endedAt, pausedBy, sandbox, answers, reviews, undelivered, usageCells, ...decide } = state as Flat15;
  return {
    ...decide, ...(reviews ? { reviewIds: reviews.map((r) => r.reviewId) } : {}),
    views: {
      board: { createdAt, restartOf: restartOf ?? null, answers: answers ?? {}, ...present({ startedBy, startedAt, endedAt, pausedBy, sandbox }) },
      ...present({ reviews, undelivered, usageCells }),
    },
  };
};

/** RUN_UPCASTS[v]: a run state snapshotted at version v, in the shape of v + 1 */
export const RUN_UPCASTS: Readonly<Record<number, (state: unknown) => unknown>> = {
  // no WorkKept was recorded before 13: a 12 has no kept work, which its absence says
  12: (state) => state,
  13: pausedBy13,
  // no step recorded its sandbox before 15: a 14 has no mark, which its absence says
  14: (state) => state,
  15: views15,
};

export type RunStreams = EventStream<RunState, RunEvent>;

export const runStream = (runId: string): string => `run:${runId}`;

// A run whose history cannot be read still shows, marked, so it can be looked at and aborted.
const placeholder = (runId: string, s: { at: string; detail: string }): RunState => ({
  ...createdState({ type: 'RunCreated', data: { runId, projectId: '', title: runId, goal: '', inputs: {}, by: { kind: 'engine' },
    workflow: { name: '', origin: 'shipped', version: '', description: '', inputs: [], defaults: {}, stepDefaults: {}, nodes: [], routes: [], source: '' } } }, s.at),
  unreadable: s.detail,
});

export const RUN_KIND: StreamKind<RunState, RunEvent> = {
  prefix: 'run:',
  codecs: RUN_EVENT_CODECS,
  evolve: (s, e, runId) => {
    const base = s ?? (e.type === 'RunCreated' ? createdState(e, e.at) : placeholder(runId, { at: e.at, detail: 'the run has no RunCreated event' }));
    return applyStored(base, e);
  },
  unreadable: (s, u, runId) => (s ? { ...s, unreadable: s.unreadable ?? u.detail, seq: u.seq } : placeholder(runId, u)),
  snapshot: { db: 'run-snapshots', version: SNAPSHOT_VERSION, seqOf: (s) => s.seq, upcasts: RUN_UPCASTS },
};

export const openRuns = (journal: Journal, store: Store): RunStreams => new EventStream(journal, RUN_KIND, store);
