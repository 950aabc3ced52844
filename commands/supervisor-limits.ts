import type { HarnessName } from '../domain/workflow.js';
import { forbidden, type Refusal } from './refusal.js';

// Rules 9 and 10: start_run stops at the supervisor's cap of its own runs at work, and
// ChangeHarness moves a run only onto a harness of its quota fallbacks that is ready now.

/** start_run is refused at the cap on its own runs at work: `atWork` counts the runs it started that have not ended;
 * `starting`, the runs the call would start (its attempts, else one) */
export const decideRunCap = (cap: number, atWork: number, starting = 1): Refusal | null => {
  if (atWork + starting <= cap) return null;
  if (starting > 1 && atWork < cap) return forbidden(`the supervisor has ${atWork} of its own runs at work and its cap is ${cap}; ${starting} attempts would pass it`);
  return forbidden(`the supervisor has ${atWork} of its own runs at work and its cap is ${cap}; start_run waits until one ends`);
};

/** ChangeHarness only to a quota fallback that is available: `notReady` is why the harness is not available now, or null when it is */
export const decideHarnessMove = (fallbacks: readonly HarnessName[], to: HarnessName, notReady: string | null): Refusal | null => {
  if (!fallbacks.includes(to)) return forbidden(`ChangeHarness may move a run only to a harness in the supervisor's quota fallbacks (${fallbacks.length ? fallbacks.join(', ') : 'none'}); ${to} is not one`);
  return notReady === null ? null : forbidden(`${to} is in the quota fallbacks but not available now: ${notReady}`);
};
