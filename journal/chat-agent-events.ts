import * as t from 'io-ts';
import { oneOf, withOptional } from './codec-util.js';

// The live agent's entries in a supervisor's chat stream: a person's message, the
// supervisor's replies, wake notices, and each turn's start and end (what it covered, what it
// cost, why it failed). A turn started and never ended was cut off by a crash: the next start
// records it as interrupted and runs it again over the same entries.

const Harness = oneOf(['claude', 'codex', 'opencode'] as const);
// Known: how turns recorded their cost before the figure's source was kept (Reported or Priced)
const Cost = t.union([
  t.type({ _tag: t.literal('Known'), usd: t.number }), t.type({ _tag: t.literal('Reported'), usd: t.number }),
  t.type({ _tag: t.literal('Priced'), usd: t.number }), t.type({ _tag: t.literal('Unknown'), why: t.string }),
]);
// the running totals the CLI reported for its session (claude's cost, codex's tokens): the next
// turn resuming the session subtracts them to count only its own share (lib/harness/session-totals.ts)
const SessionTotals = t.partial({ costUsd: t.number, usage: t.record(t.string, t.number) });

export const CHAT_AGENT_EVENT_CODECS = {
  PersonWrote: t.type({ text: t.string, sender: t.union([t.string, t.null]) }),
  SupervisorReplied: t.type({ turnId: t.string, text: t.string }),
  /** text: the service's words; quote: the run's words it is about (older notices have them inside text) */
  WakeNoticed: withOptional({ kind: oneOf(['question', 'failed', 'gate', 'checksFailed'] as const), runId: t.string, text: t.string }, { quote: t.string }),
  /** upTo: the chat's last seq this turn was given (its prompt holds everything after the previous turn's upTo) */
  TurnStarted: withOptional({ turnId: t.string, harness: Harness, upTo: t.number }, { model: t.string, resumeSession: t.string }),
  TurnFellBack: t.type({ turnId: t.string, from: Harness, to: Harness, why: t.string }),
  TurnEnded: withOptional(
    { turnId: t.string, harness: Harness, outcome: oneOf(['success', 'failure', 'interrupted'] as const), summary: t.string, cost: Cost },
    { failure: t.string, sessionId: t.string, sessionTotals: SessionTotals },
  ),
  TurnInterrupted: t.type({ turnId: t.string, reason: t.string }),
  /** wakes wait: switched off, paused, at the spending limit, or the feature is off */
  WakesHeld: t.type({ reason: t.string }),
} as const;

type Cost = import('./supervisor-events.js').SupervisorCost;
type Totals = { readonly costUsd?: number; readonly usage?: Readonly<Record<string, number>> };
type H = 'claude' | 'codex' | 'opencode';

export type ChatAgentEvent =
  | { readonly type: 'PersonWrote'; readonly data: { readonly text: string; readonly sender: string | null } }
  | { readonly type: 'SupervisorReplied'; readonly data: { readonly turnId: string; readonly text: string } }
  | { readonly type: 'WakeNoticed'; readonly data: { readonly kind: 'question' | 'failed' | 'gate' | 'checksFailed'; readonly runId: string; readonly text: string; readonly quote?: string } }
  | { readonly type: 'TurnStarted'; readonly data: { readonly turnId: string; readonly harness: H; readonly upTo: number; readonly model?: string; readonly resumeSession?: string } }
  | { readonly type: 'TurnFellBack'; readonly data: { readonly turnId: string; readonly from: H; readonly to: H; readonly why: string } }
  | { readonly type: 'TurnEnded'; readonly data: { readonly turnId: string; readonly harness: H; readonly outcome: 'success' | 'failure' | 'interrupted'; readonly summary: string; readonly cost: Cost; readonly failure?: string; readonly sessionId?: string; readonly sessionTotals?: Totals } }
  | { readonly type: 'TurnInterrupted'; readonly data: { readonly turnId: string; readonly reason: string } }
  | { readonly type: 'WakesHeld'; readonly data: { readonly reason: string } };
