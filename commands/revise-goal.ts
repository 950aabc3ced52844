import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, readable, type Decision } from './guards.js';
import { ended, invalid } from './refusal.js';

export const decideReviseGoal = (s: RunDecideState, c: CommandContext & { goal: string }): Decision => {
  const blocked = readable(s, 'revise_goal');
  if (blocked) return left(blocked);
  if (s.lifecycle === 'ended') return left(ended('the run has ended; its goal cannot be revised'));
  if (c.goal.trim() === '') return left(invalid('goal must not be blank'));
  if (c.goal === s.goal) return nothing();
  return accept({ type: 'GoalRevised', data: { goal: c.goal, previous: s.goal, ...byAndWhy(c) } });
};
