import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

export const decideResolve = (s: RunDecideState, c: CommandContext): Decision => {
  if (s.lifecycle !== 'ended' || s.ending === 'Succeeded') return left(conflict('only a run that ended without success can be resolved'));
  if (s.resolved) return nothing();
  return accept({ type: 'RunResolved', data: byAndWhy(c) });
};
