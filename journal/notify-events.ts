import * as t from 'io-ts';
import { oneOf } from './codec-util.js';
import { NEEDS_KINDS } from '../domain/settings.js';

// The notification command's journal ('notify-command'): each notice it was run for, recorded
// before it runs (so a restart never runs it twice for one event), and each failure.
const Notice = { key: t.string, kind: oneOf(NEEDS_KINDS), runId: t.union([t.string, t.null]) };

export const NOTIFY_EVENT_CODECS = {
  NotifyCommandStarted: t.type(Notice),
  NotifyCommandFailed: t.type({ ...Notice, detail: t.string }),
} as const;

type Codecs = typeof NOTIFY_EVENT_CODECS;
export type NotifyEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
