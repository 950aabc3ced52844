import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, readable, type Decision } from './guards.js';
import { ended, invalid } from './refusal.js';

export interface SendMessage extends CommandContext {
  readonly messageId: string;
  readonly text: string;
  readonly delivery: 'Resume' | 'Hold';
}

// The message is recorded; on a paused run (not at a gate) Resume also continues the run with it
// as the turn's next words. Reaching a turn in flight is not decided here: the engine reacts to
// MessageSent (lib/engine/steering.ts) and records MessageDelivered when the CLI took it.
// Anything not delivered is held and opens the run's next turn.
export const decideSendMessage = (s: RunDecideState, c: SendMessage): Decision => {
  const blocked = readable(s, 'message_run');
  if (blocked) return left(blocked);
  if (c.text.trim() === '') return left(invalid('text must not be blank'));
  if (s.sentMessages?.includes(c.messageId)) return nothing();
  if (s.lifecycle === 'ended') return left(ended(`the run has ended (${s.ending}); the message was not taken`));
  const sent = { type: 'MessageSent' as const, data: { messageId: c.messageId, text: c.text, delivery: c.delivery, ...byAndWhy(c) } };
  if (c.delivery === 'Hold') return accept(sent);
  if (s.lifecycle === 'active' && s.paused && s.step?.kind !== 'gate') return accept(sent, { type: 'RunResumed', data: byAndWhy(c) });
  return accept(sent);
};

// The engine handed a held message to the live turn of `stepId` and its CLI took it. Nothing when
// that turn is no longer the run's (it ended, the run paused) or the message is not held for it.
export const decideDeliverMessage = (s: RunDecideState, c: { messageId: string; stepId: string }): Decision => {
  if (s.step?.stepId !== c.stepId || s.paused) return nothing();
  return s.held.some((m) => m.id === c.messageId && m.forStep === c.stepId)
    ? accept({ type: 'MessageDelivered', data: { messageId: c.messageId, stepId: c.stepId } })
    : nothing();
};
