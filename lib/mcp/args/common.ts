import * as t from 'io-ts';
import { intRange, withDefault } from '../../inputs/kinds.js';

// Argument codecs shared by several tools (the fields of the actions live in lib/inputs/).

export { RunId, ProjectRef, Reason, optionalReason } from '../../inputs/common.js';
export const PageSize = (byDefault: number) => withDefault(intRange(1, 200), byDefault);
export const SeqCursor = intRange(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');

// read_run_thread hands out its cursor as a string (a row id); it is decoded here, at the door, to
// the seq it stands for, so the facade and the page read only ever see a number.
const THREAD_CURSOR = /^[1-9]\d{0,14}$/;
export const THREAD_CURSOR_NAME = 'a cursor that read_run_thread returned';
export const ThreadCursor = new t.Type<number, string, unknown>(
  THREAD_CURSOR_NAME,
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 1,
  (u, c) => (typeof u === 'string' && THREAD_CURSOR.test(u) ? t.success(Number(u)) : t.failure(u, c)),
  String,
);

/** every tool that names a run accepts an optional reason (recorded with actions) */
export const runNotes = {
  run: 'Run id (as list_runs gives it).',
  reason: 'Why the action is taken; recorded with it.',
} as const;
