import { left } from 'fp-ts/lib/Either.js';
import type { RunState } from '../projections/run-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, readable, type Decision } from './guards.js';
import { ended, invalid } from './refusal.js';

export interface SendMessage extends CommandContext {
  readonly messageId: string;
  readonly text: string;
  readonly delivery: 'Resume' | 'Hold';
  /** the step whose turn can take a message right now (the engine knows), else null */
  readonly liveStep: string | null;
}

// Resume delivers into the turn in flight when the harness takes messages mid-turn; on a paused
// run (not at a gate) it continues the run with the message as the turn's next words. Anything
// else is held and opens the run's next turn.
export const decideSendMessage = (s: RunState, c: SendMessage): Decision => {
  const blocked = readable(s, 'message_run');
  if (blocked) return left(blocked);
  if (c.text.trim() === '') return left(invalid('text must not be blank'));
  if (s.lifecycle === 'ended') return left(ended(`the run has ended (${s.ending}); the message was not taken`));
  const sent = { type: 'MessageSent' as const, data: { messageId: c.messageId, text: c.text, delivery: c.delivery, ...byAndWhy(c) } };
  if (c.delivery === 'Hold') return accept(sent);
  if (c.liveStep !== null && s.step?.stepId === c.liveStep && !s.paused) {
    return accept(sent, { type: 'MessageDelivered', data: { messageId: c.messageId, stepId: c.liveStep } });
  }
  if (s.lifecycle === 'active' && s.paused && s.step?.kind !== 'gate') return accept(sent, { type: 'RunResumed', data: byAndWhy(c) });
  return accept(sent);
};
