import type { RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';

// A run that ends (succeeds, fails, is aborted) takes no more turns: every message still held can
// never reach an agent now. Each is recorded as not delivered, with why, so the people and agents
// who sent one see it where they look (the thread, get_run) instead of it vanishing.
export const undeliverHeld = (s: RunDecideState, reason: string): RunEvent[] =>
  s.held.map((m) => ({ type: 'MessageUndelivered', data: { messageId: m.id, reason } }));
