import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { findNode } from '../domain/workflow.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, refuseAction, stopInFlight, type Decision } from './guards.js';
import { invalid } from './refusal.js';
import { quoted } from '../domain/quoted.js';

/** Nodes a run can jump to: every step but the start. */
export const jumpTargets = (s: RunDecideState): string[] => s.workflow.nodes.filter((n) => n.kind !== 'start').map((n) => n.id);

/** going, not paused, nothing in flight, and its next step is `node`: the engine starts it next */
export const aboutToStart = (s: RunDecideState, node: string): boolean => s.lifecycle === 'active' && !s.paused && s.step === null && s.node === node;

export const decideJump = (s: RunDecideState, c: CommandContext & { node: string }): Decision => {
  const reopenable = s.lifecycle === 'active' || (s.lifecycle === 'ended' && s.ending === 'Failed');
  if (!reopenable) return refuseAction('Jump');
  const target = findNode(s.workflow, c.node);
  if (!target || target.kind === 'start') return left(invalid(`no step ${JSON.stringify(quoted(c.node))} to jump to; valid steps: ${jumpTargets(s).join(', ')}`));
  if (aboutToStart(s, c.node)) return nothing(); // already there, nothing in flight: the jump is made
  return accept(...stopInFlight(s, `jumped to ${c.node}`), { type: 'Jumped', data: { node: c.node, ...byAndWhy(c) } });
};
