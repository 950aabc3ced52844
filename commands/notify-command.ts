import { right, type Either } from 'fp-ts/lib/Either.js';
import type { NotifyEvent } from '../journal/notify-events.js';
import type { NotifyState } from '../projections/notify-command.js';
import type { Refusal } from './refusal.js';

// The notification command's record. Starting it for a notice already started decides nothing:
// that is what makes it once per event, across restarts.

type Notice = Extract<NotifyEvent, { type: 'NotifyCommandStarted' }>['data'];

export const decideStartNotify = (s: NotifyState, n: Notice): Either<Refusal, NotifyEvent[]> =>
  right(s.started.has(n.key) ? [] : [{ type: 'NotifyCommandStarted', data: n }]);

/** a failure is recorded once per notice: the last one is what Settings shows */
export const decideRecordNotifyFailure = (s: NotifyState, n: Notice & { readonly detail: string }): Either<Refusal, NotifyEvent[]> =>
  right(s.lastFailure?.key === n.key ? [] : [{ type: 'NotifyCommandFailed', data: n }]);
