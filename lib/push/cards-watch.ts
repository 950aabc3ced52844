import type { Journal, Stored } from '../../journal/journal.js';
import { chatOwner, chatStream, decodeChatEntry } from '../supervisors/chat.js';
import { frame, type Sink } from './frames.js';

// The cards scope (`/api/events?cards`): every supervisor's approval cards still waiting for a
// person, as one list, sent whole on connect and again whenever one is asked for or decided.
// The list is a state, not a series, so it needs no resume id: a reconnect gets it afresh. Kept
// in memory from the first watcher on, updated from the chat streams' appends.

export interface PendingCard {
  readonly supervisor: string;
  readonly card: string;
  readonly run: string | null;
  readonly tool: string;
  /** the supervisor's words: untrusted text */
  readonly reason: string;
  readonly requestedAt: string;
}

const keyOf = (supervisor: string, card: string): string => `${supervisor}/${card}`;

export class CardsWatch {
  private pending: Map<string, PendingCard> | null = null;
  private readonly sinks = new Set<Sink>();

  constructor(private readonly journal: Journal) {
    journal.subscribe((stream, events) => {
      const supervisor = chatOwner(stream);
      if (supervisor === undefined || this.pending === null || !this.apply(supervisor, events)) return;
      for (const sink of this.sinks) this.send(sink);
    });
  }

  get size(): number {
    return this.sinks.size;
  }

  watch(sink: Sink): () => void {
    this.pending ??= this.load();
    this.sinks.add(sink);
    this.send(sink);
    return () => { this.sinks.delete(sink); };
  }

  private load(): Map<string, PendingCard> {
    this.pending = new Map();
    const prefix = chatStream('');
    for (const stream of this.journal.streams(prefix)) this.apply(stream.slice(prefix.length), this.journal.read(stream));
    return this.pending;
  }

  /** true when the waiting cards changed; a card approved (being carried out) or decided waits no more */
  private apply(supervisor: string, events: readonly Stored[]): boolean {
    let changed = false;
    for (const raw of events) {
      const e = decodeChatEntry(raw);
      if (!e) continue;
      if (e.type === 'ApprovalRequested') {
        const { cardId, tool, run, reason } = e.data;
        this.pending!.set(keyOf(supervisor, cardId), { supervisor, card: cardId, run, tool, reason, requestedAt: raw.at });
        changed = true;
      } else if (e.type === 'ApprovalCarryingOut' || e.type === 'ApprovalDecided') {
        changed = this.pending!.delete(keyOf(supervisor, e.data.cardId)) || changed;
      }
    }
    return changed;
  }

  private send(sink: Sink): void {
    sink.deliver(frame('cards', { cards: [...this.pending!.values()] }));
  }
}
