import * as t from 'io-ts';
import { intRange, nonBlank, withDefault } from './kinds.js';

// Argument codecs shared by several tools.

export const RunId = nonBlank(200);
export const ProjectRef = nonBlank(200);
export const Reason = t.string;
export const PageSize = (byDefault: number) => withDefault(intRange(1, 200), byDefault);
export const SeqCursor = intRange(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');

/** every tool that names a run accepts an optional reason (recorded with actions) */
export const runNotes = {
  run: 'Run id (as list_runs gives it).',
  reason: 'Why the action is taken; recorded with it.',
} as const;

export const optionalReason = { reason: Reason } as const;
