import * as t from 'io-ts';
import { HARNESSES } from '../../domain/workflow.js';
import { nonBlank, oneOf } from './kinds.js';

// Field codecs several actions share, with the limits both doors apply.

export const RunId = nonBlank(200);
export const ProjectRef = nonBlank(200);
export const Reason = t.string;
export const Harness = oneOf(HARNESSES);

/** every action on a run accepts an optional reason (recorded with it) */
export const optionalReason = { reason: Reason } as const;
