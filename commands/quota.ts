import { left } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { HarnessName } from '../domain/workflow.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

// Quota windows (docs/usage.md): a CLI that refuses for its usage limit says nothing about the
// agent's work. The step waits for the reset the CLI named (else an exponential backoff) and runs
// again in the same session, or the run switches to a fallback harness that is ready and not
// limited. Time and the fallback choice arrive on the command: these decides are pure.

export const BACKOFF_FIRST_MS = 60_000;
export const BACKOFF_CEILING_MS = 30 * 60_000;

/** 1 min, doubling with each hit in a row, at most 30 min */
export const backoffMs = (attempt: number): number => Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_CEILING_MS);

export interface QuotaFacts {
  readonly resetsAt?: string;
  readonly evidence: string;
  /** the engine's clock when the turn ended */
  readonly now: string;
  /** a harness the run may switch to now (listed as a fallback, ready, not limited); absent: wait */
  readonly fallback?: HarnessName;
}

// A reset the CLI named that is already past is no reason to wait: back off instead.
const waitEnd = (q: QuotaFacts, attempt: number): string => {
  const now = Date.parse(q.now);
  if (q.resetsAt && Date.parse(q.resetsAt) > now) return q.resetsAt;
  return new Date(now + backoffMs(attempt)).toISOString();
};

/** The events of a step whose turn hit its harness's quota (the step is in flight: the caller checked). */
export const quotaEvents = (s: RunDecideState, stepId: string, q: QuotaFacts): RunEvent[] => {
  const step = s.step!;
  const harness = step.harness ?? 'claude';
  const attempt = (s.quotaAttempts ?? 0) + 1;
  const hit = { stepId, node: step.node, harness, resetsAt: q.resetsAt ?? null, evidence: q.evidence, attempt };
  if (!q.fallback || q.fallback === harness) return [{ type: 'QuotaHit', data: { ...hit, waitEndsAt: waitEnd(q, attempt) } }];
  const reason = `${harness} is out of quota; switching to ${q.fallback}`;
  return [
    { type: 'QuotaHit', data: hit },
    { type: 'StepInterrupted', data: { stepId, node: step.node, reason } },
    { type: 'HarnessChanged', data: { harness: q.fallback, by: { kind: 'engine' }, reason: 'quota' } },
  ];
};

/** A quota wait's end: its time came or a person skipped it. The step then runs again in its session. */
export const quotaWaitEnded = (s: RunDecideState): RunEvent[] =>
  s.step?.quota ? [{ type: 'QuotaWaitEnded', data: { stepId: s.step.stepId, node: s.step.node } }] : [];

export interface HoldQueued {
  readonly harness: HarnessName;
  /** the harness's window end; null: not known (until the harness is seen back) */
  readonly until: string | null;
}

// The queue passes over a run whose harness is out of quota: it records why once (the board and
// the run's detail say it), and the run stays queued for the next schedule.
export const decideHoldQueued = (s: RunDecideState, c: HoldQueued): Decision => {
  if (s.lifecycle !== 'queued') return nothing();
  if (s.queueHeld?.harness === c.harness && s.queueHeld.until === c.until) return nothing();
  return accept({ type: 'QueueHeld', data: { harness: c.harness, until: c.until } });
};

/** why the queue holds a run: refused by decideGrantSlot when its harness has no window left */
export const heldRefusal = (c: HoldQueued) => left(conflict(`waiting: ${c.harness} limited${c.until ? ` until ${c.until}` : ''}`));

// A run about to start a step on a harness that is out of quota, with a fallback ready: it
// switches before the turn, not after a refused one.
export const decideQuotaSwitch = (s: RunDecideState, c: { from: HarnessName; to: HarnessName }): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step || s.harnessOverride === c.to) return nothing();
  return accept({ type: 'HarnessChanged', data: { harness: c.to, by: { kind: 'engine' }, reason: 'quota' } });
};
