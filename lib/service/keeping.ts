import { left, right } from 'fp-ts/lib/Either.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import type { RunState } from '../../projections/run-state.js';
import { isGoing } from '../../projections/standing.js';
import { ignoredPaths, pendingChanges, type PendingChanges } from '../git/keep-work.js';
import type { ServiceCore } from './core.js';

// What Archive and "Keep this one" will do to a run's worktrees, said before a person confirms
// (GET /api/runs/{id}/archive and /keep) and again in the answer: the uncommitted work each folder
// holds now is kept and comes back on unarchive (lib/git/keep-work.ts). Read only.

export interface FolderKeeping {
  readonly folder: string;
  readonly branch: string;
  /** null when git could not read the folder (then `detail` says why) */
  readonly changes: PendingChanges | null;
  /** .gitignore'd paths: not kept */
  readonly ignored: number;
  readonly detail?: string;
}

export interface Keeping {
  readonly runId: string;
  readonly archived: boolean;
  readonly folders: readonly FolderKeeping[];
  /** one sentence a person reads before confirming */
  readonly text: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const kinds = (c: PendingChanges): string =>
  [c.staged ? `${c.staged} staged` : '', c.unstaged ? `${c.unstaged} unstaged` : '', c.untracked ? `${c.untracked} untracked` : ''].filter(Boolean).join(', ');

const folderText = (f: FolderKeeping, them: string): string => {
  if (!f.changes) return `its worktree could not be read (${f.detail ?? 'unknown'}): it is kept as it is until it can`;
  const ignored = f.ignored ? `; ${plural(f.ignored, 'ignored path')} (.gitignore) will not be kept` : '';
  if (f.changes.paths === 0) return `nothing is uncommitted; its worktree goes and branch ${f.branch} keeps its commits${ignored}`;
  return `${plural(f.changes.paths, 'uncommitted change')} (${kinds(f.changes)}) will be kept on branch ${f.branch} and restored if you unarchive${them ? ` ${them}` : ''}${ignored}`;
};

const readFolder = async (c: { folder: string; directory: string; branch: string }): Promise<FolderKeeping> => {
  try {
    return { folder: c.folder, branch: c.branch, changes: await pendingChanges(c.directory), ignored: await ignoredPaths(c.directory) };
  } catch (e) {
    return { folder: c.folder, branch: c.branch, changes: null, ignored: 0, detail: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
};

const joined = (folders: readonly FolderKeeping[], them: string): string =>
  folders.length === 1 ? folderText(folders[0]!, them) : folders.map((f) => `folder ${f.folder}: ${folderText(f, them)}`).join('; ');

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const noFolders = (s: RunState): string => {
  if (s.archived) return s.keptWork?.length ? `Unarchiving makes its worktree again and restores ${plural(s.keptWork.reduce((n, k) => n + k.changes, 0), 'uncommitted change')} kept when it was archived.` : 'Unarchiving brings it back to the list.';
  if (s.continues) return `It works in the worktree of run ${s.continues.runId}: archiving takes it off the list and leaves that worktree to run ${s.continues.runId}.`;
  return 'It has no worktree of its own: archiving takes it off the list.';
};

/** what archiving the run keeps of each of its worktrees, or what unarchiving brings back */
export const keepingOf = async (s: RunState, them = ''): Promise<Keeping> => {
  if (!s.checkouts || s.continues || s.archived) return { runId: s.runId, archived: s.archived, folders: [], text: noFolders(s) };
  const folders = await Promise.all(s.checkouts.map(readFolder));
  return { runId: s.runId, archived: false, folders, text: `${capital(joined(folders, them))}.` };
};

export const archiveKeeping = async (core: ServiceCore, runId: string): Promise<Outcome<Keeping>> => {
  const s = core.runs.get(runId);
  return s ? right(await keepingOf(s)) : left(notFound('run', runId));
};

export interface KeepKeeping {
  readonly runId: string;
  /** the attempts "Keep this one" archives, each with what archiving keeps of it */
  readonly others: readonly (Keeping & { readonly harness: string | null; readonly going: boolean })[];
  readonly text: string;
}

const named = (r: RunState) => `${r.runId}${(r.harnessOverride ?? r.harness) ? ` (${r.harnessOverride ?? r.harness})` : ''}`;

/** what "Keep this one" archives: the group's other attempts, each with what archiving keeps of it */
export const keepingOthers = async (runId: string, siblings: readonly RunState[]): Promise<KeepKeeping> => {
  const others = await Promise.all(siblings.map(async (r) => ({ ...(await keepingOf(r, 'it')), harness: r.harnessOverride ?? r.harness ?? null, going: isGoing(r) })));
  const text = others.length === 0 ? 'No other attempt is left to archive.'
    : `Keeping this one archives ${plural(others.length, 'other attempt')}. ${others.map((o, i) => `${named(siblings[i]!)}${o.going ? ' (still going: it is aborted first)' : ''}: ${o.text}`).join(' ')}`;
  return { runId, others, text };
};
