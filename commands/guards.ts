import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { notAllowed, type Refusal } from './refusal.js';

export type Decision = Either<Refusal, RunEvent[]>;

export const accept = (...events: RunEvent[]): Decision => right(events);
export const nothing = (): Decision => right([]);

// A run whose history cannot be read can only be aborted: anything else might act on a state we
// could not reconstruct.
export const readable = (s: RunDecideState, action: string): Refusal | null =>
  s.unreadable ? notAllowed(action, ['Abort']) : null;

export const refuseAction = (action: string): Decision => left(notAllowed(action, []));

/** The events that end whatever is in flight: the turn is interrupted and its question withdrawn. */
export const stopInFlight = (s: RunDecideState, reason: string): RunEvent[] => {
  const out: RunEvent[] = [];
  if (s.question) out.push({ type: 'QuestionWithdrawn', data: { questionId: s.question.id, reason } });
  if (s.step) out.push({ type: 'StepInterrupted', data: { stepId: s.step.stepId, node: s.step.node, reason } });
  return out;
};

/**
 * A decide for a transaction that may run again on a run that moved: the decision already made on
 * `seen` stands while the run is still at `seen`'s seq, and only a run that moved is decided anew.
 * A handler decides once to answer a refusal early, and the transaction does not decide twice.
 */
export const reuseDecision = <S extends RunDecideState>(seen: S, made: Decision, decide: (now: S) => Decision) =>
  (now: S): Decision => (now.seq === seen.seq ? made : decide(now));
