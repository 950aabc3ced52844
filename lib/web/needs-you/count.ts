import type { BoardRow } from '../data/runs-index.js';
import { rowNeeds } from '../pages/runs/groups.js';
import type { NeedsKind } from '../../../domain/settings.js';
import type { PendingCard } from './cards.js';

// "Needs you" as the tab shows it: the count of runs the Runs page puts under "Needs you" (the
// one rule, projections/needs-you.ts) for their own sake, and of supervisor cards waiting, in the
// title as "(3) Runs · svc" and as a badge on the favicon. Pure: the shell applies what these return.

export type NoticeKind = NeedsKind;

/** runs that need the person for their own sake, and each card waiting (each is a decision to make) */
export const needsCount = (rows: ReadonlyMap<string, BoardRow>, cards: readonly PendingCard[] | null = null): number => {
  let n = cards?.length ?? 0;
  for (const r of rows.values()) if (rowNeeds(r)) n++;
  return n;
};

export const titleWith = (count: number, base: string): string => (count > 0 ? `(${count}) ${base}` : base);

const ICON = '<rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M8 10l6 6-6 6" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><path d="M16 23h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/>';

/** the app's icon with a red badge carrying the count (9+ above nine); null: the plain icon */
export const badgedFavicon = (count: number): string | null => {
  if (count <= 0) return null;
  const text = count > 9 ? '9+' : String(count);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ICON}<circle cx="23" cy="9" r="9" fill="#dc2626"/>`
    + `<text x="23" y="13" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${text.length > 1 ? 9 : 12}" fill="#fff">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
};
