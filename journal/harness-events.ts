import * as t from 'io-ts';
import { HARNESSES } from '../domain/workflow.js';
import { oneOf, withOptional } from './codec-util.js';

// The harnesses' quota windows are one journal ('harnesses'): a CLI that refused for its usage
// limit is limited until the reset it named (or the wait the run took), and its window ends by
// time, or earlier when a turn on it is seen to go through. A restart folds it back.
const Harness = oneOf(HARNESSES);

export const HARNESS_EVENT_CODECS = {
  // `until` null: no end known; it ends when a turn on the harness goes through. `runId`: the run that saw it
  HarnessLimited: withOptional({ harness: Harness, until: t.union([t.string, t.null]), evidence: t.string }, { runId: t.string }),
  HarnessWindowEnded: withOptional({ harness: Harness }, { reason: t.string }),
} as const;

type Codecs = typeof HARNESS_EVENT_CODECS;
export type HarnessEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
