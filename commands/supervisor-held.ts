import type { SupervisorState } from '../projections/supervisor.js';
import { spentOn } from '../projections/supervisor.js';

// A supervisor's actions (and its live turns) wait while the feature is off, while it is
// switched off or paused for the day, and once today's spending reaches its daily limit. Reading
// tools, notes, hand_up and hand_over_run are not actions and never ask this.

export interface HeldFacts {
  readonly featureOn: boolean;
  /** ISO instant */
  readonly now: string;
  /** the local day of `now` (YYYY-MM-DD) */
  readonly today: string;
}

const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** why the supervisor may not act now, or null */
export const decideHeld = (s: SupervisorState, f: HeldFacts): string | null => {
  if (!f.featureOn) return 'the supervisor feature is off in Settings';
  if (!s.settings.enabled) return `supervisor ${s.id} is switched off`;
  if (s.settings.pausedUntil !== null && Date.parse(s.settings.pausedUntil) > Date.parse(f.now)) return `supervisor ${s.id} is paused for the day (until ${s.settings.pausedUntil})`;
  const spent = spentOn(s, f.today);
  if (spent >= s.settings.dailyLimitUsd) return `supervisor ${s.id} has reached today's spending limit (${usd(spent)} of ${usd(s.settings.dailyLimitUsd)})`;
  return null;
};
