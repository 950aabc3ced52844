import type { HarnessEvent } from '../journal/harness-events.js';
import type { HarnessName } from '../domain/workflow.js';

// Each harness's quota window, folded from the 'harnesses' journal. A window whose `until` has
// passed is over by time (read with the engine's clock); no event is needed for that.

export interface HarnessWindow {
  readonly until: string | null;
  readonly evidence: string;
}

export type HarnessWindows = Readonly<Partial<Record<HarnessName, HarnessWindow>>>;

export const NO_WINDOWS: HarnessWindows = {};

export const evolveHarnessWindows = (s: HarnessWindows, e: HarnessEvent): HarnessWindows => {
  switch (e.type) {
    case 'HarnessLimited': return { ...s, [e.data.harness]: { until: e.data.until, evidence: e.data.evidence } };
    case 'HarnessWindowEnded': {
      const { [e.data.harness]: _ended, ...rest } = s;
      return rest;
    }
  }
};

/** the harness's window if it is limited at `now`, else null */
export const limitOf = (s: HarnessWindows, harness: HarnessName, now: Date): HarnessWindow | null => {
  const w = s[harness];
  return w && (w.until === null || Date.parse(w.until) > now.getTime()) ? w : null;
};
