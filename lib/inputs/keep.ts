import * as t from 'io-ts';
import { fields } from './object.js';
import { optionalReason } from './common.js';

// "Keep this one" on an attempt (POST /api/runs/{id}/keep, keep_attempt): the others of its group
// are archived; `abortOthers` first aborts those still going (without it they refuse the keep).
export const KeepInput = fields({}, { abortOthers: t.boolean, ...optionalReason });
