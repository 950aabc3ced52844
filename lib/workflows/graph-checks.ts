import { addError, addWarning, type Findings } from './diagnostics.js';
import type { NodeKind, Route, StepNode } from '../../domain/workflow.js';
import type { WorkflowDraft } from './parse.js';

// The shape of the graph: one start, some exit, every route between declared nodes, every step with
// a way on, and every run able to finish. Conditions are ignored for reachability: either outcome
// may happen. Unreachable nodes are warnings (harmless, and `Jump` can still reach them); a start
// that cannot reach an exit, or a loop with no way out, is an error (a run would never end).

// Kinds whose step cannot fail: a failure route out of them is never taken.
const ALWAYS_SUCCEED: readonly NodeKind[] = ['start', 'gate', 'wait'];

export const checkGraph = (draft: WorkflowDraft, f: Findings): void => {
  const { nodes } = draft.workflow;
  const routes = [...draft.workflow.routes, ...draft.unreadRoutes];
  checkEnds(nodes, f);
  checkMissing(routes, draft.declared, f);
  for (const n of nodes) checkWayOn(n, draft.workflow.routes, routes, f);
  checkReach(draft, routes, f);
};

const checkEnds = (nodes: readonly StepNode[], f: Findings): void => {
  const starts = nodes.filter((n) => n.kind === 'start');
  if (starts.length === 0) addError(f, null, null, 'no start node (declare one node with kind=start)');
  if (starts.length > 1) addError(f, null, null, `more than one start node: ${starts.map((n) => n.id).join(', ')}`);
  if (!nodes.some((n) => n.kind === 'exit')) addError(f, null, null, 'no exit node (declare a node with kind=exit)');
};

const checkMissing = (routes: readonly Route[], declared: ReadonlySet<string>, f: Findings): void => {
  for (const r of routes) {
    for (const id of new Set([r.from, r.to])) {
      if (!declared.has(id)) addError(f, id, null, `route ${r.from} -> ${r.to}: node ${id} is not declared (give it a node statement with a kind)`);
    }
  }
};

const checkWayOn = (n: StepNode, readable: readonly Route[], all: readonly Route[], f: Findings): void => {
  const out = readable.filter((r) => r.from === n.id);
  if (n.kind === 'exit') {
    if (out.length > 0) addWarning(f, n.id, null, 'routes out of an exit node are never taken');
    return;
  }
  if (!all.some((r) => r.from === n.id)) return addError(f, n.id, null, 'no route out of this node (only an exit node ends a run)');
  for (const cond of ['success', 'failure', undefined] as const) {
    const same = out.filter((r) => r.condition === cond);
    const what = cond ? `with condition outcome=${cond}` : 'without a condition';
    if (same.length > 1) addError(f, n.id, cond ? 'condition' : null, `more than one route ${what}; only the first (to ${same[0].to}) would be taken`);
  }
  if (ALWAYS_SUCCEED.includes(n.kind) && out.some((r) => r.condition === 'failure')) {
    addWarning(f, n.id, 'condition', `a ${n.kind} node always succeeds; its outcome=failure route is never taken`);
  }
  const onSuccess = out.some((r) => r.condition !== 'failure');
  if (out.length > 0 && !onSuccess) addError(f, n.id, null, 'no route for outcome=success (add one, or a route without a condition)');
};

const successors = (routes: readonly Route[]): Map<string, string[]> => {
  const m = new Map<string, string[]>();
  for (const r of routes) m.set(r.from, [...(m.get(r.from) ?? []), r.to]);
  return m;
};

const closure = (from: readonly string[], next: ReadonlyMap<string, readonly string[]>): Set<string> => {
  const seen = new Set<string>(from);
  const todo = [...from];
  while (todo.length > 0) {
    for (const to of next.get(todo.pop() as string) ?? []) if (!seen.has(to)) seen.add(to), todo.push(to);
  }
  return seen;
};

const reverse = (routes: readonly Route[]): Route[] => routes.map((r) => ({ from: r.to, to: r.from }));

const checkReach = (draft: WorkflowDraft, routes: readonly Route[], f: Findings): void => {
  const { nodes } = draft.workflow;
  const starts = nodes.filter((n) => n.kind === 'start');
  if (starts.length !== 1) return;
  const start = starts[0].id;
  const reached = closure([start], successors(routes));
  for (const id of draft.declared) if (!reached.has(id)) addWarning(f, id, null, 'unreachable from start');
  const exits = nodes.filter((n) => n.kind === 'exit').map((n) => n.id);
  // Without an exit, or with a start that goes nowhere, the error already given says it all.
  if (exits.length === 0 || !routes.some((r) => r.from === start)) return;
  const toExit = closure(exits, successors(reverse(routes)));
  if (!toExit.has(start)) return addError(f, start, null, 'no path from start to an exit');
  // A node with no way on is reported already; what is left is a loop a run can enter and never leave.
  const deadEnds = [...draft.declared].filter((id) => !routes.some((r) => r.from === id));
  const canFinish = closure([...exits, ...deadEnds], successors(reverse(routes)));
  for (const id of reached) {
    if (draft.declared.has(id) && !canFinish.has(id)) addError(f, id, null, 'a run that gets here can never reach an exit (a loop with no way out)');
  }
};
