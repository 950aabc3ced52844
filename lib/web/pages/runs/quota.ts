import type { QuotaWaitingOn } from '../../../../domain/runs.js';

// How the app words a harness's quota window: "claude limited until 14:05" (the person's local
// time; the date too when it is not today). Pure: `now` is an argument, so a test fixes it.

const two = (n: number): string => String(n).padStart(2, '0');

export const untilText = (iso: string, now: number): string => {
  const at = new Date(iso);
  const today = new Date(now);
  const clock = `${two(at.getHours())}:${two(at.getMinutes())}`;
  return at.toDateString() === today.toDateString() ? clock : `${at.toLocaleDateString()} ${clock}`;
};

/** "limited until 14:05" */
export const windowText = (until: string | null, now: number): string => `limited${until ? ` until ${untilText(until, now)}` : ' (reset time unknown)'}`;

export const limitedText = (harness: string, until: string | null, now: number): string => `${harness} ${windowText(until, now)}`;

/** "waiting: claude limited until 14:05", or null once the window has passed */
export const waitingText = (w: QuotaWaitingOn | undefined, now: number): string | null => {
  if (!w || (w.until !== null && Date.parse(w.until) <= now)) return null;
  return `waiting: ${limitedText(w.harness, w.until, now)}`;
};
