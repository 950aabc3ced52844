// Where a supervisor's live agent stands, folded from its chat stream: which entries its turns
// have been given (everything up to `coveredUpTo`), the turn in flight, the session to resume,
// whether a wake waits, and the last reason wakes were held. Entries of types this fold does not
// know (the records' cards, decisions, hand_ups, action reasons) count as wakes when `isWake` says so.
import type { HarnessName } from '../domain/workflow.js';

export interface ChatEntry {
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
}

/** what a CLI reported as its session's running totals (lib/harness/adapter.ts SessionTotals) */
export interface SessionTotals {
  readonly costUsd?: number;
  readonly usage?: Readonly<Record<string, number>>;
}

export interface TurnsState {
  readonly head: number;
  readonly coveredUpTo: number;
  /** before: coveredUpTo when it started; given: the wake seqs it was given */
  readonly inFlight?: { readonly turnId: string; readonly upTo: number; readonly before: number; readonly given: readonly number[] };
  /** totals: what the CLI last reported as the session's running totals, for the next turn to subtract */
  readonly session?: { readonly harness: HarnessName; readonly id: string; readonly totals?: SessionTotals };
  /** seqs of wake entries not yet given to a turn */
  readonly wakes: readonly number[];
  readonly heldReason?: string;
}

export const EMPTY_TURNS: TurnsState = { head: 0, coveredUpTo: 0, wakes: [] };

const field = <T>(e: ChatEntry, k: string): T => (e.data as Record<string, unknown>)[k] as T;

const started = (s: TurnsState, e: ChatEntry): TurnsState => {
  const upTo = field<number>(e, 'upTo');
  const { heldReason: _cleared, ...rest } = s;
  const inFlight = { turnId: field<string>(e, 'turnId'), upTo, before: s.coveredUpTo, given: s.wakes.filter((w) => w <= upTo) };
  return { ...rest, inFlight, coveredUpTo: upTo, wakes: s.wakes.filter((w) => w > upTo) };
};

// A turn on the same session that reported no totals (it failed before claude's result line)
// keeps the last ones: the next report still includes what that turn spent, counted once.
const ended = (s: TurnsState, e: ChatEntry): TurnsState => {
  const { inFlight: _done, ...rest } = s;
  const sessionId = field<string | undefined>(e, 'sessionId');
  if (!sessionId) return rest;
  const harness = field<HarnessName>(e, 'harness');
  const same = s.session?.id === sessionId && s.session.harness === harness;
  const totals = field<SessionTotals | undefined>(e, 'sessionTotals') ?? (same ? s.session?.totals : undefined);
  return { ...rest, session: { harness, id: sessionId, ...(totals ? { totals } : {}) } };
};

// A cut-off turn hands its entries back: the next turn is given them again.
const interrupted = (s: TurnsState): TurnsState => {
  if (!s.inFlight) return s;
  const { inFlight, ...rest } = s;
  return { ...rest, coveredUpTo: inFlight.before, wakes: [...inFlight.given, ...s.wakes] };
};

export const evolveTurns =
  (isWake: (type: string) => boolean) =>
  (s: TurnsState, e: ChatEntry): TurnsState => {
    const next = { ...s, head: Math.max(s.head, e.seq) };
    switch (e.type) {
      case 'TurnStarted':
        return started(next, e);
      case 'TurnEnded':
        return ended(next, e);
      case 'TurnInterrupted':
        return interrupted(next);
      case 'WakesHeld':
        return { ...next, heldReason: field<string>(e, 'reason') };
      default:
        return isWake(e.type) ? { ...next, wakes: [...next.wakes, e.seq] } : next;
    }
  };

export const hasPendingWake = (s: TurnsState): boolean => s.wakes.length > 0 && !s.inFlight;
