import { intRange, withDefault } from '../../inputs/kinds.js';

// Argument codecs shared by several tools (the fields of the actions live in lib/inputs/).

export { RunId, ProjectRef, Reason, optionalReason } from '../../inputs/common.js';
export const PageSize = (byDefault: number) => withDefault(intRange(1, 200), byDefault);
export const SeqCursor = intRange(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');

/** every tool that names a run accepts an optional reason (recorded with actions) */
export const runNotes = {
  run: 'Run id (as list_runs gives it).',
  reason: 'Why the action is taken; recorded with it.',
} as const;
