import type { BoardRow } from '../../data/runs-index.js';
import { groupOf, type GroupKey } from './groups.js';

// Attempts started together on one goal are one card on the board, as a follow-up chain is. The
// card sits where its most pressing attempt is (one that needs a person, then one at work, then
// one queued), so a failed attempt is not hidden behind a sibling that succeeded. Pure.

export interface AttemptGroups {
  /** one row per card: a run outside any group, or the group's most pressing attempt */
  readonly cards: readonly BoardRow[];
  /** group id -> its attempts in order; only groups with a card */
  readonly groups: ReadonlyMap<string, readonly BoardRow[]>;
}

const RANK: Readonly<Record<GroupKey, number>> = { needs: 0, active: 1, queued: 2, done: 3 };
const byIndex = (a: BoardRow, b: BoardRow) => (a.attempt?.index ?? 0) - (b.attempt?.index ?? 0);

export const collapseAttempts = (rows: Iterable<BoardRow>): AttemptGroups => {
  const cards: BoardRow[] = [];
  const groups = new Map<string, BoardRow[]>();
  for (const r of rows) {
    const g = r.attempt?.group;
    if (g === undefined) { cards.push(r); continue; }
    const list = groups.get(g);
    if (list) list.push(r);
    else groups.set(g, [r]);
  }
  for (const list of groups.values()) {
    list.sort(byIndex);
    cards.push(list.reduce((best, r) => (RANK[groupOf(r)] < RANK[groupOf(best)] ? r : best)));
  }
  return { cards, groups };
};

export const groupOfCard = (c: AttemptGroups, r: BoardRow): readonly BoardRow[] | undefined =>
  r.attempt ? c.groups.get(r.attempt.group) : undefined;
