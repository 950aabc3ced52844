import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideRecordBaseUpdate, type RecordBaseUpdate } from '../../commands/ship.js';
import { conflict, notFound, refusalText, type Outcome } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { errorText } from '../git/checkout-git.js';
import { updateFromBase, type BaseUpdate, type UpdateMode } from '../git/update-from-base.js';
import { refreshBase } from '../git/run-clones.js';
import type { Actor } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';
import { followUp } from './follow-ups.js';
import { message } from './run-commands.js';
import { noWorktree } from '../../commands/worktree.js';

// Update from base (docs/shipping.md; merging locally is lib/service/merge-local.ts): the git work
// is lib/git's; this records it on the run, and hands conflicts to the agent when asked to.

const runOf = (core: ServiceCore, runId: string): Outcome<RunState> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  if (!s.checkouts?.length) return left(noWorktree(s, 'there is nothing to merge or update'));
  return right(s);
};

const record = (core: ServiceCore, runId: string, decide: (s: RunState) => ReturnType<typeof decideRecordBaseUpdate>) =>
  core.runs.transact(runId, (now) => (now ? decide(now) : left(notFound('run', runId))), { at: core.now().toISOString(), onStale: 'retry' });

export interface FolderUpdate { readonly folder: string; readonly base: string; readonly outcome: BaseUpdate }

// Git is busy in the worktree while an agent turn runs there: updating under it would mix the two.
const busy = (s: RunState): boolean => s.lifecycle === 'active' && !s.paused && s.step?.kind === 'agent';

const conflictText = (mode: UpdateMode, conflicts: readonly FolderUpdate[]): string => [
  `Resolve these conflicts: updating the run's branch from its base (${mode}) met conflicts, and svc aborted it, leaving your worktree as it was.`,
  ...conflicts.map((u) => `In folder ${u.folder}, bring in ${u.base} with \`git ${mode} ${u.base}\`, then resolve the conflicts in: ${u.outcome._tag === 'Conflicted' ? u.outcome.files.join(', ') : ''}.`),
  `Keep the intent of both sides, ${mode === 'merge' ? 'commit the merge' : 'continue the rebase until it is done'}, and say what you decided.`,
].join('\n');

// An ended run gets a follow-up run on its branch; a live one a message (it takes it at its next turn).
const handOver = (core: ServiceCore, s: RunState, text: string, by: Actor): Outcome<string> => {
  if (s.lifecycle === 'ended') {
    const made = followUp(core, s.runId, { text }, by);
    return isLeft(made) ? made : right(made.right.runId);
  }
  const sent = message(core, s.runId, text, 'Resume', undefined, by);
  return isLeft(sent) ? sent : right(s.runId);
};

export const updateRunFromBase = async (
  core: ServiceCore, runId: string, input: { mode: UpdateMode; onConflict?: 'agent' | 'leave' }, by: Actor,
): Promise<Outcome<{ run: RunDetail; folders: FolderUpdate[]; handedTo: string | null }>> => {
  const found = runOf(core, runId);
  if (isLeft(found)) return found;
  const s = found.right;
  if (busy(s)) return left(conflict('an agent turn is working in the run\'s worktree now; pause the run or wait for the turn to end'));
  const missing = s.checkouts!.filter((c) => !c.baseBranch).map((c) => c.folder);
  if (missing.length > 0) return left(conflict(`the run's base branch is unknown for folder ${missing.join(', ')} (the checkout was on a detached HEAD when the run began)`));
  const folders: FolderUpdate[] = [];
  for (const c of s.checkouts!) {
    try {
      // a run's own repository learns where the user's base branch is now
      if (c.clone) await refreshBase(c.path, c.directory, c.baseBranch!);
      folders.push({ folder: c.folder, base: c.baseBranch!, outcome: await updateFromBase(c.directory, c.baseBranch!, input.mode) });
    } catch (e) {
      const done = folders.length > 0 ? ` (already updated: ${folders.map((f) => f.folder).join(', ')})` : '';
      return left(conflict(`could not update folder ${c.folder} from ${c.baseBranch}: ${errorText(e)}${done}`));
    }
  }
  const conflicts = folders.filter((f) => f.outcome._tag === 'Conflicted');
  const handed = conflicts.length > 0 && input.onConflict === 'agent' ? handOver(core, s, conflictText(input.mode, conflicts), by) : null;
  const handedTo = handed && !isLeft(handed) ? handed.right : null;
  for (const f of folders) {
    const result: RecordBaseUpdate['result'] | null = f.outcome._tag === 'Updated' ? { head: f.outcome.head } : f.outcome._tag === 'Conflicted' ? { files: f.outcome.files } : null;
    if (result) record(core, runId, (now) => decideRecordBaseUpdate(now, { folder: f.folder, mode: input.mode, result, by, ...(handedTo && 'files' in result ? { handedTo } : {}) }));
  }
  if (handed && isLeft(handed)) {
    return left(conflict(`the update met conflicts (aborted, the worktree as it was), but handing them to the agent was refused: ${refusalText(handed.left)}`));
  }
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), folders, handedTo });
};
