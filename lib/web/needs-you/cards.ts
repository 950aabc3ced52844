import { signal } from '@preact/signals';

// The supervisor cards waiting for a person, as the shell follows them (the `cards` push scope):
// a run with a card waiting needs its person (projections/needs-you.ts), so the board and the
// tab's count read them here rather than each opening the stream.

/** a supervisor's card waiting for a person (the `cards` push scope) */
export interface PendingCard { readonly supervisor: string; readonly card: string; readonly run: string | null; readonly tool: string }

export const pendingCards = signal<readonly PendingCard[] | null>(null);

/** how many cards wait on each run */
export const cardsByRun = (cards: readonly PendingCard[] | null): ReadonlyMap<string, number> => {
  const out = new Map<string, number>();
  for (const c of cards ?? []) if (c.run) out.set(c.run, (out.get(c.run) ?? 0) + 1);
  return out;
};
