import { left, right } from 'fp-ts/lib/Either.js';
import { invalid, notFound, unavailable, type Outcome } from '../../commands/refusal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Stored } from '../../journal/journal.js';
import { CHAT_STREAM_CODECS } from '../../journal/supervisor-chat-events.js';
import { chatStream } from '../supervisors/chat.js';
import type { ServiceCore } from '../service/core.js';
import type { SupervisorLoop } from './supervisor-loop.js';

// A supervisor's chat over HTTP: pages of its entries (as the push stream sends them, `seq`, `at`,
// `type`, `data`; an entry that does not decode is `Unreadable` with a detail), and a person's
// message, which wakes the supervisor or waits, the chat saying why.

export interface ChatEntryView {
  readonly seq: number;
  readonly at: string;
  readonly type: string;
  readonly data?: unknown;
  readonly detail?: string;
}

export interface ChatPage {
  readonly entries: readonly ChatEntryView[];
  /** the cursor of the page before this one, or null at the chat's start */
  readonly before: number | null;
}

/** longest message a person may write, in characters */
export const MAX_CHAT_TEXT = 20_000;

const view = (s: Stored): ChatEntryView => {
  const d = decodeStored(CHAT_STREAM_CODECS, s);
  return isUnreadable(d) ? { seq: s.seq, at: s.at, type: 'Unreadable', detail: d.detail } : { seq: s.seq, at: s.at, type: s.type, data: s.data };
};

/** up to `size` entries before seq `before` (default: the newest), oldest first */
export const chatPage = (core: ServiceCore, id: string, before: number | undefined, size: number): Outcome<ChatPage> => {
  if (!core.supervisors.get(id)) return left(notFound('supervisor', id));
  const entries = core.journal.page(chatStream(id), before, size).map(view);
  const first = entries[0]?.seq ?? 1;
  return right({ entries, before: first > 1 ? first : null });
};

export interface Written {
  readonly entry: ChatEntryView;
  /** why the supervisor will not answer now (feature off, switched off, paused, at its limit), or null */
  readonly heldBecause: string | null;
}

export const writeChat = (core: ServiceCore, loop: SupervisorLoop, id: string, text: string, sender: string | null): Outcome<Written> => {
  if (!core.supervisors.get(id)) return left(notFound('supervisor', id));
  if ([...text].length > MAX_CHAT_TEXT) return left(invalid(`text is longer than ${MAX_CHAT_TEXT} characters`));
  const stored = loop.write(id, text, sender);
  if (!stored) return left(unavailable('the message was not recorded'));
  return right({ entry: view(stored), heldBecause: core.supervisors.heldBecause(id) });
};

/** one supervisor's chat in the list of chats (GET /api/chats) */
export interface ChatSummary {
  readonly supervisor: string;
  readonly project: string | null;
  /** how many entries it holds (its last seq) */
  readonly entries: number;
  readonly last: { readonly seq: number; readonly at: string; readonly type: string } | null;
  /** where its pages are read and a person writes to it */
  readonly url: string;
}

/** every supervisor's chat, in the supervisors' order: read off each stream's head, no entry decoded */
export const chatList = (core: ServiceCore): readonly ChatSummary[] =>
  core.supervisors.all().map((s) => {
    const stream = chatStream(s.id);
    const head = core.journal.head(stream);
    const newest = head > 0 ? core.journal.read(stream, head, head)[0] : undefined;
    return {
      supervisor: s.id, project: s.project, entries: head,
      last: newest ? { seq: newest.seq, at: newest.at, type: newest.type } : null,
      url: `/api/supervisors/${encodeURIComponent(s.id)}/chat`,
    };
  });
