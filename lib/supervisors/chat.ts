import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { SUPERVISOR_CHAT_EVENT_CODECS, type SupervisorChatEvent } from '../../journal/supervisor-chat-events.js';
import { untrusted } from '../untrusted.js';

// A supervisor's chat: one journal stream per supervisor, written by the records (action reasons,
// approval cards and decisions, hand_ups) and by the live agent (people's messages, replies,
// turns). Several writers: an append reads the head and appends after it.

const PREFIX = 'supervisor-chat:';

export const chatStream = (id: string): string => `${PREFIX}${id}`;

export const chatOwner = (stream: string): string | undefined => (stream.startsWith(PREFIX) ? stream.slice(PREFIX.length) : undefined);

export const appendChat = (journal: Journal, id: string, events: readonly SupervisorChatEvent[], at: string): Stored[] => {
  const stream = chatStream(id);
  for (;;) {
    const r = journal.append(stream, journal.head(stream), events, at);
    if (r._tag === 'Appended') return [...r.events];
  }
};

/** the records' entries of a chat (not the live agent's), decoded (other writers' entries are left out) */
export const decodeChatEntry = (raw: Stored): (SupervisorChatEvent & { seq: number; at: string }) | undefined => {
  if (!Object.prototype.hasOwnProperty.call(SUPERVISOR_CHAT_EVENT_CODECS, raw.type)) return undefined;
  const d = decodeStored<SupervisorChatEvent>(SUPERVISOR_CHAT_EVENT_CODECS, raw);
  return isUnreadable(d) ? undefined : (d as unknown as SupervisorChatEvent & { seq: number; at: string });
};

const clip = (s: string, max = 600): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const quote = (s: string, max = 600): string => JSON.stringify(clip(s, max));
const onRun = (run: string | null): string => (run ? ` on run ${run}` : '');

/** one line for the live agent's prompt (tool answers and another supervisor's words are fenced as data) */
export const describeChatEntry = (e: SupervisorChatEvent): string => {
  switch (e.type) {
    case 'ActionTaken': return `You called ${e.data.tool}${onRun(e.data.run)} (reason: ${quote(e.data.reason, 300)}).\n${untrusted('What it answered', e.data.summary)}`;
    case 'ApprovalRequested': return `You asked a person to approve ${e.data.tool}${onRun(e.data.run)} (card ${e.data.cardId}, reason: ${quote(e.data.reason, 300)})`;
    case 'ApprovalCarryingOut': return `A person approved card ${e.data.cardId}; it is being carried out`;
    case 'ApprovalDecided': {
      const verb = e.data.decision === 'Approve' ? 'approved' : 'denied';
      const note = e.data.note ? ` with the note ${quote(e.data.note)}` : '';
      return `A person ${verb} card ${e.data.cardId}${note}: ${e.data.result}.${e.data.detail ? `\n${untrusted('What the call answered', e.data.detail)}` : ''}`;
    }
    case 'HandedUp': return `Supervisor ${e.data.from}${e.data.project ? ` (project ${e.data.project})` : ''} handed up.\n${untrusted('What it wrote', clip(e.data.text, 2000))}`;
    case 'RunReceived': return `Supervisor ${e.data.from} handed run ${e.data.run} over to you; you own it now.\n${untrusted('Its reason', clip(e.data.reason, 300))}`;
  }
};
