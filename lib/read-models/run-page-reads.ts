import { left, right } from 'fp-ts/lib/Either.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import { jumpTargets } from '../../commands/jump.js';
import { readRunDiff, type FolderDiff, type UnreadableFolderDiff } from '../git/run-diff.js';
import type { NodeKind } from '../workflows/model.js';
import type { ServiceCore } from '../service/core.js';

// Reads the app's run page needs beyond the run's detail: the workflow the run is walking (the
// version it started on, not whatever the catalog holds now) and its changes as diff text.

export interface RunWorkflowView {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** the DOT source, @files inlined */
  readonly source: string;
  readonly nodes: readonly { readonly id: string; readonly kind: NodeKind; readonly label?: string }[];
  /** the step in flight or the node the run is at; null once it has left the graph */
  readonly current: string | null;
  /** the nodes Jump accepts */
  readonly jumpTargets: readonly string[];
}

export const readRunWorkflow = (core: ServiceCore, runId: string): Outcome<RunWorkflowView> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const wf = s.workflow;
  return right({
    name: wf.name, version: wf.version, description: wf.description, source: wf.source,
    nodes: wf.nodes.map((n) => ({ id: n.id, kind: n.kind, ...(n.label ? { label: n.label } : {}) })),
    current: s.step?.node ?? s.node ?? null,
    jumpTargets: jumpTargets(s),
  });
};

export const readRunDiffOf = async (core: ServiceCore, runId: string): Promise<Outcome<{ folders: readonly (FolderDiff | UnreadableFolderDiff)[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  if (!s.checkouts || s.checkouts.length === 0) return left(conflict('the run has no worktree of its own (not started yet, or archived)'));
  return right({ folders: await readRunDiff(s.checkouts) });
};
