import type { RunEvent } from '../journal/run-events.js';
import { applyStoredDecide, createdDecideState, type RunDecideState } from './run-decide-state.js';
import { createdBoard, evolveRunBoard, type RunBoardView } from './run-board.js';
import { evolveRunReviews, type SubmittedReview } from './run-reviews.js';
import { evolveRunUndelivered, type UndeliveredMessage } from './run-undelivered.js';
import { evolveUsageCells, type UsageCell } from './usage-days.js';

// A run's state: the decide state (projections/run-decide-state.ts), which every command decides
// against, and beside it, under `views`, what only views read, each part folded by its own file.
// Views read this whole state; commands/ never import it (spec/layout.test.ts). It is the snapshot
// stored beside the journal (lib/state/run-stream.ts), so it holds plain JSON only.

export interface RunViews {
  /** the board's and run page's facts (projections/run-board.ts) */
  readonly board: RunBoardView;
  /** reviews with their comments (projections/run-reviews.ts) */
  readonly reviews?: readonly SubmittedReview[];
  /** messages the run ended with still held (projections/run-undelivered.ts) */
  readonly undelivered?: readonly UndeliveredMessage[];
  /** usage by local day, harness and model: the usage read model's start (projections/usage-days.ts) */
  readonly usageCells?: readonly UsageCell[];
}

export interface RunState extends RunDecideState {
  readonly views: RunViews;
}

export const createdState = (e: Extract<RunEvent, { type: 'RunCreated' }>, at: string): RunState =>
  ({ ...createdDecideState(e, at), views: { board: createdBoard(e, at) } });

const evolveViews = (v: RunViews, e: RunEvent & { at: string }, before: RunDecideState): RunViews => {
  const reviews = evolveRunReviews(v.reviews, e, e.at);
  const undelivered = evolveRunUndelivered(v.undelivered, e, before);
  const usageCells = e.type === 'UsageRecorded' ? evolveUsageCells(v.usageCells, e.data, e.at) : v.usageCells;
  return {
    board: evolveRunBoard(v.board, e, before, e.at),
    ...(reviews ? { reviews } : {}), ...(undelivered ? { undelivered } : {}), ...(usageCells ? { usageCells } : {}),
  };
};

/** Folds a stored event onto a run's state: its decide state, then each view. */
export const applyStored = (s: RunState, e: RunEvent & { seq: number; at: string }): RunState => {
  const { views, ...before } = s;
  return { ...applyStoredDecide(before, e), views: evolveViews(views, e, before) };
};
