import type { RunDecideState } from '../projections/run-decide-state.js';
import { findNode, nextNodeId, type Workflow } from '../domain/workflow.js';

// "Send back" at a gate (a review there, or the app's note): the agent step that gets the
// person's words, and how the run gets there: the gate's own route when it leads to an agent
// (Resume), else the agent step the run came from (Jump). Whether the run then comes back to the
// gate is said plainly: a person who sent work back expects to look again before it goes on, and
// a workflow whose way back leads on elsewhere (`review -> fix -> done`) does not let them.

export interface SendBackRoute {
  readonly gate: string;
  readonly to: string;
  readonly how: 'Resume' | 'Jump';
  /** the run reaches this gate again, on success, from `to` */
  readonly returns: boolean;
}

const isAgent = (wf: Workflow, node: string | null | undefined): node is string => !!node && findNode(wf, node)?.kind === 'agent';

// the success route from `from`, followed until it reaches `gate` or leaves the graph (each node once)
const reaches = (wf: Workflow, from: string, gate: string): boolean => {
  const seen = new Set<string>();
  for (let at: string | undefined = from; at !== undefined && !seen.has(at); at = nextNodeId(wf, at, 'success')) {
    if (at === gate) return true;
    seen.add(at);
  }
  return false;
};

/** where Send back goes from the gate the run stands at, or null (not at a gate, or no agent to send to) */
export const sendBackRoute = (s: RunDecideState): SendBackRoute | null => {
  if (s.lifecycle !== 'active' || s.step?.kind !== 'gate') return null;
  const gate = s.step.node;
  const then = nextNodeId(s.workflow, gate, 'success');
  const back = s.previous?.node;
  const route = isAgent(s.workflow, then) ? { to: then, how: 'Resume' as const } : isAgent(s.workflow, back) ? { to: back, how: 'Jump' as const } : null;
  return route ? { gate, ...route, returns: reaches(s.workflow, route.to, gate) } : null;
};

/** what the answer to a Send back says of the run's way on */
export const sendBackText = (r: SendBackRoute): string =>
  r.returns ? `it comes back to the gate ${r.gate} after` : `the run then goes on from ${r.to} without coming back to the gate ${r.gate}`;
