import type { TurnInput, TurnResult } from '../harness/adapter.js';

// What the dispatcher's parts share (dispatcher.ts, dispatch-requests.ts, step-runner.ts).

/** a bundle crosses NATS in parts of this size (a message is at most 1 MB) */
export const BUNDLE_CHUNK = 256 * 1024;

/** the journal's fence (lib/service/dispatch.ts) as the dispatcher uses it */
export interface Fence {
  dispatched(runId: string, stepId: string): void;
  claimed(m: { stepId: string; workerId: string; token: number }): boolean;
  admit(m: { stepId: string; workerId: string; token: number }, kind: 'result' | 'event' | 'renewal'): boolean;
  holds(m: { stepId: string; workerId: string; token: number }): boolean;
  lost(stepId: string, reason: string): void;
  /** a worker's message that did not decode: kept as evidence, nothing of it applied */
  refused(workerId: string, subject: string, reason: string): void;
}

export interface Pending {
  readonly input: TurnInput;
  readonly bundle: string;
  readonly parts: Map<number, string>;
  readonly end: (r: TurnResult) => void;
}

