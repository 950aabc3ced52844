import { left, right } from 'fp-ts/lib/Either.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import { jumpTargets } from '../../commands/jump.js';
import { readRunDiff, type FolderDiff, type UnreadableFolderDiff } from '../git/run-diff.js';
import { nextNodeId, type NodeKind, type StepNode, type Workflow } from '../../domain/workflow.js';
import type { RunViewSource } from './run-detail.js';
import { sendBackRoute, type SendBackRoute } from '../../commands/send-back.js';

// Reads the app's run page needs beyond the run's detail: the workflow the run is walking (the
// version it started on, not whatever the catalog holds now) and its changes as diff text.

interface GateOrStep { readonly id: string; readonly kind: NodeKind; readonly label?: string; readonly prompt?: string; readonly then?: string }

const viewNode = (wf: Workflow, n: StepNode): GateOrStep => {
  const base = { id: n.id, kind: n.kind, ...(n.label ? { label: n.label } : {}) };
  if (n.kind !== 'gate') return base;
  const then = nextNodeId(wf, n.id, 'success');
  return { ...base, ...(n.prompt ? { prompt: n.prompt } : {}), ...(then ? { then } : {}) };
};

export interface RunWorkflowView {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** the DOT source, @files inlined */
  readonly source: string;
  /**
   * a gate's prompt is here for the person deciding at it (an agent's is in `source`), and `then`,
   * the step its approval leads to: the app's Send back needs to know whether that is an agent
   */
  readonly nodes: readonly GateOrStep[];
  /** the step in flight or the node the run is at; null once it has left the graph */
  readonly current: string | null;
  /** the step the run came from (the last to end), null before any did */
  readonly previous: string | null;
  /** the nodes Jump accepts */
  readonly jumpTargets: readonly string[];
  /** at a gate: where Send back goes, and whether the run comes back to the gate after (commands/send-back.ts) */
  readonly sendBack: SendBackRoute | null;
}

export const readRunWorkflow = (core: RunViewSource, runId: string): Outcome<RunWorkflowView> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const wf = s.workflow;
  return right({
    name: wf.name, version: wf.version, description: wf.description, source: wf.source,
    nodes: wf.nodes.map((n) => viewNode(wf, n)),
    current: s.step?.node ?? s.node ?? null,
    previous: s.previous?.node ?? null,
    jumpTargets: jumpTargets(s),
    sendBack: sendBackRoute(s),
  });
};

export const readRunDiffOf = async (core: RunViewSource, runId: string): Promise<Outcome<{ folders: readonly (FolderDiff | UnreadableFolderDiff)[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  if (!s.checkouts || s.checkouts.length === 0) return left(conflict('the run has no worktree of its own (not started yet, or archived)'));
  return right({ folders: await readRunDiff(s.checkouts) });
};
