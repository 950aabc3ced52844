import { right, type Either } from 'fp-ts/lib/Either.js';
import type { HarnessEvent } from '../journal/harness-events.js';
import type { HarnessWindows } from '../projections/harness-windows.js';
import type { HarnessName } from '../domain/workflow.js';
import type { Refusal } from './refusal.js';

// The engine's commands on the 'harnesses' journal (docs/usage.md "Quota windows").

type Decided = Either<Refusal, HarnessEvent[]>;

export interface LimitHarness {
  readonly harness: HarnessName;
  readonly until: string | null;
  readonly evidence: string;
  readonly runId?: string;
}

// A window is recorded once per end: a second run hitting the same limit says nothing new.
export const decideLimitHarness = (s: HarnessWindows, c: LimitHarness): Decided =>
  right(s[c.harness]?.until === c.until ? [] : [{ type: 'HarnessLimited', data: { ...c } }]);

// A turn on the harness went through: its window, if one is recorded, is over whatever it said.
export const decideEndWindow = (s: HarnessWindows, c: { harness: HarnessName; reason: string }): Decided =>
  right(s[c.harness] ? [{ type: 'HarnessWindowEnded', data: { ...c } }] : []);
