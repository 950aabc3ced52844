import { signal } from '@preact/signals';
import type { PendingCard } from './notices.js';

// The supervisor cards waiting for a person, as the shell follows them (the `cards` push scope):
// a run with a card waiting needs its person (projections/needs-you.ts), so the board and the
// tab's count read them here rather than each opening the stream.

export const pendingCards = signal<readonly PendingCard[] | null>(null);

/** how many cards wait on each run */
export const cardsByRun = (cards: readonly PendingCard[] | null): ReadonlyMap<string, number> => {
  const out = new Map<string, number>();
  for (const c of cards ?? []) if (c.run) out.set(c.run, (out.get(c.run) ?? 0) + 1);
  return out;
};
