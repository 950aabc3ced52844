import { useEffect, useRef } from 'preact/hooks';
import type { BoardRow } from '../data/runs-index.js';

// Compare follows its two runs as the board does: the runs index (GET /api/board, then the `?runs`
// push stream) already carries each run's row on every append. When either row changes (it moved,
// ended, was archived or kept, its cost was recorded; from this tab or any other), the comparison
// is read again: at most once per `minMs`, since each read diffs both runs' worktrees.

const MIN_MS = 1500;

/** the part of a row that changes what Compare shows; '' until the row is known */
const rowKey = (r: BoardRow | undefined): string => (r ? JSON.stringify([r.position, r.standing, r.archived, r.attempt?.kept ?? null, r.costUsd, r.endedAt]) : '');

export const useFollowPair = (rows: ReadonlyMap<string, BoardRow>, a: string, b: string, reload: () => void, minMs = MIN_MS): void => {
  const key = `${rowKey(rows.get(a))}/${rowKey(rows.get(b))}`;
  const seen = useRef<{ pair: string; key: string } | null>(null);
  const last = useRef(0);
  useEffect(() => {
    const pair = `${a}/${b}`;
    const before = seen.current;
    seen.current = { pair, key };
    // the first rows of a pair are what the first read already showed
    if (!before || before.pair !== pair || before.key.startsWith('/') || before.key.endsWith('/')) return;
    if (before.key === key) return;
    const t = setTimeout(() => { last.current = Date.now(); reload(); }, Math.max(0, minMs - (Date.now() - last.current)));
    return () => clearTimeout(t);
  }, [a, b, key]);
};
