import type { Journal, Stored } from '../../journal/journal.js';
import { frame, MAX_REPLAY, type Sink } from './frames.js';

// A supervisor's scope (`/api/events?supervisor=<id>`): the entries appended to its chat stream,
// as they are stored (`seq`, `at`, `type`, `data`). The id is `supervisor:<id>:<seq>`. Which
// journal stream is a supervisor's chat is the supervisors module's to say (EventsHub.chats).

interface Watcher { readonly supervisor: string; seq: number; readonly sink: Sink }

export const parseChatId = (lastId: string, supervisor: string): number | null => {
  const m = /^supervisor:(.+):(\d{1,15})$/.exec(lastId);
  return m && m[1] === supervisor ? Number(m[2]) : null;
};

const entry = (s: Stored) => ({ seq: s.seq, at: s.at, type: s.type, data: s.data });

export class ChatWatch {
  private readonly watchers = new Map<string, Set<Watcher>>();

  constructor(private readonly journal: Journal) {
    journal.subscribe((stream, events) => {
      const set = this.watchers.get(stream);
      if (set) for (const w of set) this.send(w, events.filter((e) => e.seq > w.seq));
    });
  }

  get size(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  watch(supervisor: string, stream: string, sink: Sink, from: number | null): () => void {
    const head = this.journal.head(stream);
    const w: Watcher = { supervisor, seq: from ?? head, sink };
    const set = this.watchers.get(stream) ?? new Set<Watcher>();
    this.watchers.set(stream, set);
    set.add(w);
    const stop = () => {
      set.delete(w);
      if (set.size === 0 && this.watchers.get(stream) === set) this.watchers.delete(stream);
    };
    if (from === null) {
      sink.deliver(frame('ready', { supervisor }, `supervisor:${supervisor}:${head}`));
      return stop;
    }
    const missed = this.journal.read(stream, from + 1, from + MAX_REPLAY + 1);
    if (missed.length > MAX_REPLAY) sink.deliver(frame('reset', { reason: 'too far behind; load the chat again' }));
    else this.send(w, missed);
    return stop;
  }

  private send(w: Watcher, events: readonly Stored[]): void {
    if (events.length === 0) return;
    w.seq = events[events.length - 1]!.seq;
    w.sink.deliver(frame('chat', { entries: events.map(entry) }, `supervisor:${w.supervisor}:${w.seq}`));
  }
}
