import type { BoardRow } from '../../data/runs-index.js';
import { needsOf, type Needs } from '../../../../projections/needs-you.js';

// How the Runs page sorts runs for triage. Pure: the page renders what this returns.
//   needs: whatever the one rule says waits for a person (projections/needs-you.ts): a question,
//     a gate, a failure nobody resolved yet, a pause by svc (budget, harness, cycle limit), a card
//   active: running, waiting (a wait step), paused by a person
//   queued: waiting for a slot, in queue order (MoveToFront changes it); then runs not started
//   done: succeeded, aborted, failures that were resolved

export type GroupKey = 'needs' | 'active' | 'queued' | 'done';

export const GROUPS: readonly { readonly key: GroupKey; readonly title: string; readonly empty: string }[] = [
  { key: 'needs', title: 'Needs you', empty: 'Nothing needs you.' },
  { key: 'active', title: 'Running and waiting', empty: 'Nothing is running.' },
  { key: 'queued', title: 'Queued', empty: 'Nothing is queued.' },
  { key: 'done', title: 'Done', empty: 'Nothing has finished yet.' },
];

export interface Filters {
  readonly project: string;
  readonly workflow: string;
  readonly standing: string;
  readonly text: string;
  readonly archived: boolean;
}

export const filtersFrom = (q: URLSearchParams): Filters => ({
  project: q.get('project') ?? '', workflow: q.get('workflow') ?? '', standing: q.get('standing') ?? '', text: q.get('q') ?? '', archived: q.get('archived') === '1',
});

export const filtersQuery = (f: Filters): string => {
  const q = new URLSearchParams();
  if (f.project) q.set('project', f.project);
  if (f.workflow) q.set('workflow', f.workflow);
  if (f.standing) q.set('standing', f.standing);
  if (f.text) q.set('q', f.text);
  if (f.archived) q.set('archived', '1');
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** what a run needs of a person, by the one rule; `cards`: supervisor cards waiting per run */
export const rowNeeds = (r: BoardRow, cards?: ReadonlyMap<string, number>): Needs | null =>
  needsOf({ ...r, cards: cards?.get(r.runId) ?? 0 });

/** Why a run needs a person, in words, or null. */
export const needsReason = (r: BoardRow, cards?: ReadonlyMap<string, number>): string | null => rowNeeds(r, cards)?.label ?? null;

export const groupOf = (r: BoardRow, cards?: ReadonlyMap<string, number>): GroupKey => {
  if (rowNeeds(r, cards)) return 'needs';
  switch (r.standing) {
    case 'Running': case 'Waiting': case 'Paused': case 'Question': return 'active';
    case 'Queued': case 'Created': return 'queued';
    default: return 'done';
  }
};

// Lower-cased title, goal and id per row, computed once per row object (rows are replaced on change).
const haystacks = new WeakMap<BoardRow, string>();
const haystack = (r: BoardRow): string => {
  let h = haystacks.get(r);
  if (h === undefined) haystacks.set(r, (h = `${r.title}\n${r.goal}\n${r.runId}`.toLowerCase()));
  return h;
};

/** `shown`: the title the row's card shows, when not its own (a follow-up chain's card shows its first run's) */
export const matches = (r: BoardRow, f: Filters, text = f.text.trim().toLowerCase(), shown?: string): boolean =>
  (!f.project || r.project === f.project) && (!f.workflow || r.workflowName === f.workflow) && (!f.standing || r.standing === f.standing)
  && (f.archived || !r.archived) && (!text || haystack(r).includes(text) || (shown !== undefined && shown.toLowerCase().includes(text)));

const newestFirst = (a: BoardRow, b: BoardRow) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.runId < b.runId ? 1 : -1);
const queueFirst = (a: BoardRow, b: BoardRow) => {
  if (a.standing !== b.standing) return a.standing === 'Queued' ? -1 : 1;
  if (a.standing === 'Queued') return a.queuePriority - b.queuePriority || (a.runId < b.runId ? -1 : 1);
  return a.runId < b.runId ? 1 : -1;
};

export type Grouped = Readonly<Record<GroupKey, readonly BoardRow[]>>;

export const groupRuns = (rows: Iterable<BoardRow>, f: Filters, cards?: ReadonlyMap<string, number>, shownTitle?: (r: BoardRow) => string | undefined): Grouped => {
  const out: Record<GroupKey, BoardRow[]> = { needs: [], active: [], queued: [], done: [] };
  const text = f.text.trim().toLowerCase();
  for (const r of rows) if (matches(r, f, text, shownTitle?.(r))) out[groupOf(r, cards)].push(r);
  out.needs.sort(newestFirst);
  out.active.sort(newestFirst);
  out.queued.sort(queueFirst);
  out.done.sort(newestFirst);
  return out;
};
