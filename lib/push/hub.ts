import { type ServiceCore } from '../service/core.js';
import { queueHoldOf } from '../read-models/run-detail.js';
import { CardsWatch } from './cards-watch.js';
import { ChatWatch, parseChatId } from './chat-watch.js';
import { frame, type Sink } from './frames.js';
import { parseRunId, RunWatch } from './run-watch.js';
import { RunsFeed } from './runs-feed.js';
import type { ListedJson } from '../read-models/runs-board.js';

// The push stream's source: one journal listener per scope kind serves every connection, and a
// connection costs nothing until something in its scope is appended. No timer runs while idle
// (keep-alives belong to the HTTP route).

export type Scope =
  | { readonly kind: 'runs' }
  | { readonly kind: 'run'; readonly runId: string; readonly log: boolean }
  | { readonly kind: 'supervisor'; readonly id: string }
  /** every supervisor's cards waiting for a person (the app's needs-you count) */
  | { readonly kind: 'cards' };

export type Opened = { readonly _tag: 'Opened'; readonly stop: () => void } | { readonly _tag: 'Unknown'; readonly detail: string };

/** Which journal stream holds a supervisor's chat; supervisors register it (undefined: no such supervisor). */
export type ChatStreams = (supervisorId: string) => string | undefined;

export class EventsHub {
  readonly runs: RunsFeed;
  private readonly run: RunWatch;
  private readonly chat: ChatWatch;
  private readonly cards: CardsWatch;
  chats: ChatStreams = () => undefined;

  constructor(private readonly core: ServiceCore, listed?: ListedJson) {
    this.runs = new RunsFeed(core.runs, core.journal, listed, (s) => queueHoldOf(core, s));
    this.run = new RunWatch(core, core.journal, core.logs);
    this.chat = new ChatWatch(core.journal);
    this.cards = new CardsWatch(core.journal);
  }

  /** open connections, all scopes */
  get size(): number {
    return this.runs.size + this.run.size + this.chat.size + this.cards.size;
  }

  /** `lastId`: the Last-Event-ID the client sent, if any. An id this scope cannot resume from gets `reset`. */
  async open(scope: Scope, sink: Sink, lastId: string | undefined): Promise<Opened> {
    const reset = () => sink.deliver(frame('reset', { reason: 'cannot resume from that event id; load again' }));
    if (scope.kind === 'runs') {
      const from = lastId === undefined ? null : this.runs.parse(lastId);
      if (lastId !== undefined && from === null) reset();
      if (from === null) sink.deliver(frame('ready', { scope: 'runs' }, this.runs.cursor()));
      return { _tag: 'Opened', stop: this.runs.watch(sink, from ?? this.runs.now) };
    }
    if (scope.kind === 'cards') return { _tag: 'Opened', stop: this.cards.watch(sink) };
    if (scope.kind === 'run') {
      const s = this.core.runs.get(scope.runId);
      if (!s) return { _tag: 'Unknown', detail: `no run ${scope.runId}` };
      const from = lastId === undefined ? null : parseRunId(lastId, scope.runId);
      const sane = from && from.seq <= s.seq && from.line <= this.core.logs.head(scope.runId) ? from : null;
      if (lastId !== undefined && !sane) reset();
      return { _tag: 'Opened', stop: await this.run.watch(scope.runId, scope.log, sink, sane) };
    }
    const stream = this.chats(scope.id);
    if (!stream) return { _tag: 'Unknown', detail: `no supervisor ${scope.id}` };
    const from = lastId === undefined ? null : parseChatId(lastId, scope.id);
    const sane = from !== null && from <= this.core.journal.head(stream) ? from : null;
    if (lastId !== undefined && sane === null) reset();
    return { _tag: 'Opened', stop: this.chat.watch(scope.id, stream, sink, sane) };
  }

  close(): void {
    this.runs.close();
    this.run.close();
  }
}
