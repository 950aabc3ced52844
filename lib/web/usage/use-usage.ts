import { useEffect, useRef } from 'preact/hooks';
import { openEvents } from '../events.js';

// The page follows the runs push stream: a run's board row changes whenever its journal does (a
// turn's usage is one such append), and the page reads its sums again, at most once every MIN_MS
// however busy the agents are. The read model makes each read cheap; this keeps them few.

const MIN_MS = 2_000;

export const useLiveReload = (reload: () => void): void => {
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const soon = () => {
      if (timer) return;
      timer = setTimeout(() => { timer = null; last = Date.now(); latest.current(); }, Math.max(0, MIN_MS - (Date.now() - last)));
    };
    // only a cost that moved is worth a read: every frame carries the changed runs' rows
    const known = new Map<string, string>();
    const stream = openEvents('runs', {
      runs: (d: { rows: { runId: string; costUsd?: number; unknownTurns?: number }[] }) => {
        let moved = false;
        for (const r of d.rows) {
          const cost = `${r.costUsd ?? 0}/${r.unknownTurns ?? 0}`;
          if (known.get(r.runId) !== cost) moved = true;
          known.set(r.runId, cost);
        }
        if (moved) soon();
      },
    });
    return () => { stream.close(); if (timer) clearTimeout(timer); };
  }, []);
};
