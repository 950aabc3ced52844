import * as t from 'io-ts';
import { CHAT_AGENT_EVENT_CODECS } from './chat-agent-events.js';
import { oneOf, withOptional } from './codec-util.js';

// The supervisor records' entries in a supervisor's chat stream (`supervisor-chat:<id>`, shared with the live
// agent's entries of chat-agent-events.ts): the reason of each action it took (every action needs one), approval
// cards and their decisions ("Ask me first"), a hand_up arriving (global supervisor) and a run handed
// over to it. A decision, a hand_up and a handed-over run wake the supervisor.

/**
 * Applied: carried out; Stale: a control whose run moved past its position; Refused: the rules or
 * the run said no when carried out; Interrupted: the server stopped while carrying it out.
 */
export const APPROVAL_RESULTS = ['Applied', 'Stale', 'Refused', 'Denied', 'Interrupted'] as const;
export type ApprovalResult = (typeof APPROVAL_RESULTS)[number];

export const SUPERVISOR_CHAT_EVENT_CODECS = {
  /** summary: one short line of what came of it */
  ActionTaken: t.type({ tool: t.string, run: t.union([t.string, t.null]), reason: t.string, summary: t.string }),
  /** args: the call exactly as made, carried out as it is on Approve */
  ApprovalRequested: t.type({ cardId: t.string, tool: t.string, run: t.union([t.string, t.null]), args: t.UnknownRecord, reason: t.string }),
  /** a person approved; recorded before the call is carried out, so a crash cannot lose the decision */
  ApprovalCarryingOut: withOptional({ cardId: t.string, sender: t.union([t.string, t.null]) }, { note: t.string }),
  ApprovalDecided: withOptional(
    { cardId: t.string, decision: oneOf(['Approve', 'Deny'] as const), sender: t.union([t.string, t.null]), result: oneOf(APPROVAL_RESULTS), detail: t.string },
    { note: t.string },
  ),
  HandedUp: t.type({ from: t.string, project: t.union([t.string, t.null]), text: t.string }),
  RunReceived: t.type({ from: t.string, run: t.string, reason: t.string }),
} as const;

type Codecs = typeof SUPERVISOR_CHAT_EVENT_CODECS;
export type SupervisorChatEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
export type SupervisorChatEventOf<K extends SupervisorChatEvent['type']> = Extract<SupervisorChatEvent, { type: K }>;

/** the entries that wake the supervisor whose chat they land in */
export const WAKING_CHAT_EVENTS: ReadonlySet<string> = new Set(['ApprovalDecided', 'HandedUp', 'RunReceived']);

/** the one vocabulary of a supervisor's chat stream: the live agent's entries and the records' */
export const CHAT_STREAM_CODECS = { ...CHAT_AGENT_EVENT_CODECS, ...SUPERVISOR_CHAT_EVENT_CODECS } as const;
