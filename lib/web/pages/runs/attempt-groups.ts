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
  readonly attemptOf: AttemptOf;
}

type AttemptOf = (r: BoardRow) => BoardRow['attempt'];

const RANK: Readonly<Record<GroupKey, number>> = { needs: 0, active: 1, queued: 2, done: 3 };

/** `attemptOf`: the attempt a row stands for; a follow-up of an attempt stands for the attempt it
 * continues (the board shows a chain by its latest run) */
export const collapseAttempts = (rows: Iterable<BoardRow>, attemptOf: AttemptOf = (r) => r.attempt): AttemptGroups => {
  const cards: BoardRow[] = [];
  const groups = new Map<string, BoardRow[]>();
  const byIndex = (a: BoardRow, b: BoardRow) => (attemptOf(a)?.index ?? 0) - (attemptOf(b)?.index ?? 0);
  for (const r of rows) {
    const g = attemptOf(r)?.group;
    if (g === undefined) { cards.push(r); continue; }
    const list = groups.get(g);
    if (list) list.push(r);
    else groups.set(g, [r]);
  }
  for (const list of groups.values()) {
    list.sort(byIndex);
    cards.push(list.reduce((best, r) => (RANK[groupOf(r)] < RANK[groupOf(best)] ? r : best)));
  }
  return { cards, groups, attemptOf };
};

export const groupOfCard = (c: AttemptGroups, r: BoardRow): readonly BoardRow[] | undefined => {
  const a = c.attemptOf(r);
  return a ? c.groups.get(a.group) : undefined;
};
