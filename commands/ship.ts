import type { PullRequestRef, Actor } from '../domain/runs.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { left } from 'fp-ts/lib/Either.js';
import type { PendingMerge } from '../projections/run-decide-state.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

// Shipping from the app records what its git and code-host effects did, after they did it
// (lib/service/ship.ts). Each decide is the record of one fact: the same fact twice is recorded once.

export interface RecordPullRequest { readonly pullRequest: PullRequestRef; readonly base: string; readonly draft: boolean; readonly by: Actor }
export interface RecordMerge { readonly folder: string; readonly method: 'fast-forward' | 'merge' | 'squash'; readonly base: string; readonly commit: string; readonly by: Actor }
export interface RecordBaseUpdate {
  readonly folder: string;
  readonly mode: 'merge' | 'rebase';
  readonly result: { readonly head: string } | { readonly files: string[] };
  readonly handedTo?: string;
  readonly by: Actor;
}

export const decideRecordPullRequest = (s: RunDecideState, c: RecordPullRequest): Decision => {
  if (s.pullRequests.some((p) => p.repository === c.pullRequest.repository && p.number === c.pullRequest.number)) return nothing();
  return accept({ type: 'PullRequestOpened', data: { pullRequest: { ...c.pullRequest }, base: c.base, draft: c.draft, by: c.by } });
};

export const decideRecordMerge = (s: RunDecideState, c: RecordMerge): Decision => {
  if ((s.merges ?? []).some((m) => m.folder === c.folder && m.commit === c.commit && m.base === c.base)) return nothing();
  return accept({ type: 'RunMerged', data: { folder: c.folder, method: c.method, base: c.base, commit: c.commit, by: c.by } });
};

// The same outcome as the folder's latest one is no news (a second click on a head already recorded).
export const decideRecordBaseUpdate = (s: RunDecideState, c: RecordBaseUpdate): Decision => {
  const last = s.baseUpdates?.[c.folder];
  const { folder, mode, by } = c;
  if ('head' in c.result) {
    if (last && 'head' in last && last.head === c.result.head) return nothing();
    return accept({ type: 'BaseUpdated', data: { folder, mode, head: c.result.head, by } });
  }
  if (last && 'files' in last && last.files.join('\n') === c.result.files.join('\n') && last.handedTo === c.handedTo) return nothing();
  return accept({ type: 'BaseUpdateConflicted', data: { folder, mode, files: c.result.files, by, ...(c.handedTo ? { handedTo: c.handedTo } : {}) } });
};

export interface StartMerge { readonly method: RecordMerge['method']; readonly folders: readonly PendingMerge[]; readonly by: Actor }

// One local merge of a run at a time: the record says one is under way until it ends (RunMerged
// for each folder, or MergeAbandoned), across a restart too.
export const decideStartMerge = (s: RunDecideState, c: StartMerge): Decision => {
  if (s.merging) return left(conflict(`a merge of run ${s.runId} is under way (started ${s.merging.at}); wait for it to end`));
  return accept({ type: 'MergeStarted', data: { method: c.method, folders: c.folders.map((f) => ({ ...f })), by: c.by } });
};

export const decideAbandonMerge = (s: RunDecideState, reason: string): Decision =>
  s.merging ? accept({ type: 'MergeAbandoned', data: { reason } }) : nothing();
