import type { RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from './run-decide-state.js';

// The messages a run ended with still held, and why: what the run page and the send's reply show
// (the decide state drops them from `held`, and no decide reads them after).

export interface UndeliveredMessage {
  readonly id: string;
  readonly text: string;
  readonly reason: string;
}

export type RunUndeliveredView = readonly UndeliveredMessage[] | undefined;

/** `before`: the decide state the event was folded onto, which still holds the message */
export const evolveRunUndelivered = (v: RunUndeliveredView, e: RunEvent, before: RunDecideState): RunUndeliveredView => {
  if (e.type !== 'MessageUndelivered') return v;
  const m = before.held.find((h) => h.id === e.data.messageId);
  return m ? [...(v ?? []), { id: m.id, text: m.text, reason: e.data.reason }] : v;
};
