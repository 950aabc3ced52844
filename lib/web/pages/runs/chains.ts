import type { BoardRow } from '../../data/runs-index.js';

// A run and its follow-ups are one piece of work: the board shows them as one card, standing as
// the latest attempt stands, with every attempt a link away. Pure: the page renders what this returns.

export interface Collapsed {
  /** the latest attempt of each chain (a run never followed up is its own chain) */
  readonly latest: readonly BoardRow[];
  /** chain root -> its attempts, oldest first; only chains of more than one run */
  readonly attempts: ReadonlyMap<string, readonly BoardRow[]>;
}

const chainOf = (r: BoardRow): string => r.chain ?? r.runId;
const oldestFirst = (a: BoardRow, b: BoardRow) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.runId < b.runId ? -1 : 1);

export const collapseChains = (rows: Iterable<BoardRow>): Collapsed => {
  const chains = new Map<string, BoardRow[]>();
  for (const r of rows) {
    const key = chainOf(r);
    const list = chains.get(key);
    if (list) list.push(r);
    else chains.set(key, [r]);
  }
  const latest: BoardRow[] = [];
  const attempts = new Map<string, readonly BoardRow[]>();
  for (const [key, list] of chains) {
    if (list.length > 1) list.sort(oldestFirst);
    latest.push(list[list.length - 1]!);
    if (list.length > 1) attempts.set(key, list);
  }
  return { latest, attempts };
};

export const attemptsOf = (c: Collapsed, r: BoardRow): readonly BoardRow[] | undefined => c.attempts.get(chainOf(r));
