import type { HarnessName } from '../../domain/workflow.js';
import type { TurnInput, TurnResult } from '../harness/adapter.js';
import type { PlacementAsk } from './placement.js';
import type { Job } from './remote-messages.js';
import type { DispatchedStep } from '../../projections/dispatch.js';

// What the dispatcher's parts share (dispatcher.ts, dispatch-requests.ts, step-runner.ts).

/** a bundle crosses NATS in parts of this size (a message is at most 1 MB) */
export const BUNDLE_CHUNK = 256 * 1024;

/** the journal's fence (lib/service/dispatch.ts) as the dispatcher uses it */
export interface Fence {
  dispatched(runId: string, stepId: string): void;
  claimed(m: { stepId: string; workerId: string; token: number }): boolean;
  /** `result`: with a result, what the hub applied, recorded with it (a restarted hub ends the step from it) */
  admit(m: { stepId: string; workerId: string; token: number }, kind: 'result' | 'event' | 'renewal', result?: TurnResult): boolean;
  holds(m: { stepId: string; workerId: string; token: number }): boolean;
  lost(stepId: string, reason: string): void;
  /** no renewal of this claim for a lease's length: it is no longer the current one */
  lapsed(m: { stepId: string; workerId: string; token: number }): void;
  /** the run was paused or aborted: the step ends here, whatever its worker sends later */
  recalled(stepId: string, reason: string): void;
  /** the step waits for its one worker, which is not online (recorded once per wait) */
  awaiting(stepId: string, workerId: string): void;
  /** the step as the journal has it (its claim, whether it ended) */
  step(stepId: string): DispatchedStep | undefined;
  /** a worker's message that did not decode: kept as evidence, nothing of it applied */
  refused(workerId: string, subject: string, reason: string): void;
  /**
   * runs `apply` (synchronous) in the one transaction that records the worker's message `id` as
   * applied; false, and nothing run, when it was recorded before (SVC_OUT delivered it again)
   */
  once(id: string, apply: () => void): boolean;
}

export interface Pending {
  readonly input: TurnInput;
  readonly harness: HarnessName;
  readonly job: Job;
  readonly bundle: string;
  readonly parts: Map<number, string>;
  /** the session's files as of its last step end, sent to the worker that resumes it */
  readonly session: Buffer | null;
  /** the session's files as the worker's turn left them, in parts */
  readonly sessionParts: Map<number, string>;
  readonly end: (r: TurnResult) => void;
  readonly place: Placing;
  /** the messages of the work's and the session's parts: acked once the step ends, so a hub killed before its result finds them again */
  readonly partMessages: { ack(): void }[];
}

/** where the step is, and where it was: each placement is an attempt; a lapsed lease avoids that worker */
export interface Placing {
  readonly ask: PlacementAsk;
  workerId?: string;
  /** its message's sequence in the step queue, once published by this hub */
  seq?: number;
  attempt: number;
  readonly avoid: string[];
  /** what it last told the run about its wait (its place in line and why) */
  told?: string;
  /** why it waits, as placement last said */
  waits?: string;
}

/** a worker as the hub sees it now (presence and what it announced) */
export interface SeatFacts {
  readonly workerId: string;
  readonly online: boolean;
  readonly slots: number;
  readonly busy: number;
  readonly harnesses: readonly HarnessName[];
}

/** the fencing token of a claim: the placement's attempt and the delivery number on its worker's queue */
export const tokenOf = (attempt: number, delivery: number): number => attempt * 1000 + delivery;

