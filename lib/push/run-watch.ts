import type { Journal, Stored } from '../../journal/journal.js';
import { previewOf, type ActivityRow } from '../state/activity-log.js';
import type { LogLine, LogStore } from '../state/log-store.js';
import { runStream } from '../state/run-stream.js';
import { type ServiceCore } from '../service/core.js';
import { detailOf } from '../read-models/run-detail.js';
import { historyEventOf, threadRowOf } from '../read-models/pages.js';
import { frame, MAX_REPLAY, type Sink } from './frames.js';

// One run's scope (`/api/events?run=<id>`, `&log` for its log lines): after each append the run's
// detail (as get_run gives it) with the new thread rows and history events; with `&log`, new log
// lines in batches, with the activity rows that changed beside them (`activity`, outputs cut to
// a preview; a row comes again when it ends). The id is `run:<runId>:<seq>:<line>` (the last journal seq and log line the
// client holds), so a resume is exact: both are durable counters of the run. A fork made of the run
// sends its detail again under the same id (the link is in the fork's journal; a resume or a fresh
// watch starts with the detail as it is now, so none is missed).

interface Watcher {
  readonly runId: string;
  readonly log: boolean;
  seq: number;
  line: number;
  readonly sink: Sink;
  /** live log lines and activity rows that arrived while the resume was reading the store */
  held: Batch | null;
}

interface Batch { readonly lines: LogLine[]; readonly activity: ActivityRow[] }

const batch = (): Batch => ({ lines: [], activity: [] });

// A row changes once, running → ended: of two copies the ended one is the newer.
const latestRows = (rows: readonly ActivityRow[]): ActivityRow[] => {
  const byId = new Map<number, ActivityRow>();
  for (const r of rows) if (byId.get(r.id)?.status === 'running' || !byId.has(r.id) || r.status !== 'running') byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => a.id - b.id);
};

const LOG_FLUSH_MS = 50;

export const parseRunId = (lastId: string, runId: string): { seq: number; line: number } | null => {
  const m = /^run:(.+):(\d{1,15}):(\d{1,15})$/.exec(lastId);
  return m && m[1] === runId ? { seq: Number(m[2]), line: Number(m[3]) } : null;
};

export class RunWatch {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly pendingLines = new Map<Watcher, Batch>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly core: ServiceCore, journal: Journal, logs: LogStore) {
    journal.subscribe((stream, events) => {
      if (stream.startsWith('run:')) this.onAppended(stream.slice(4), events);
    });
    logs.subscribe((runId, line) => this.onLine(runId, line));
    logs.activity.subscribe((runId, row) => this.onLine(runId, previewOf(row)));
    // A fork is recorded in its own journal only (whole or absent, link included), so the source's
    // watchers get the source's detail again, now listing it, under the id they already hold.
    core.forks.onFork((source) => this.onDetailChanged(source));
  }

  get size(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  private id(w: Watcher): string {
    return `run:${w.runId}:${w.seq}:${w.line}`;
  }

  /** Starts following; with `from` (a parsed Last-Event-ID) it first sends what the client missed. */
  async watch(runId: string, log: boolean, sink: Sink, from: { seq: number; line: number } | null): Promise<() => void> {
    const state = this.core.runs.get(runId)!;
    const w: Watcher = { runId, log, seq: from?.seq ?? state.seq, line: from?.line ?? this.core.logs.head(runId), sink, held: log ? batch() : null };
    const set = this.watchers.get(runId) ?? new Set<Watcher>();
    this.watchers.set(runId, set);
    set.add(w);
    const stop = () => {
      set.delete(w);
      this.pendingLines.delete(w);
      if (set.size === 0 && this.watchers.get(runId) === set) this.watchers.delete(runId);
    };
    const missed = this.core.journal.read(runStream(runId), w.seq + 1, w.seq + MAX_REPLAY + 1);
    if (missed.length > MAX_REPLAY) return this.reset(w, stop);
    this.send(w, missed, true);
    if (log) {
      // Log lines are written in batches; wait for the batch so the store holds every line before now.
      await this.core.logs.flushed();
      const lines = from ? this.core.logs.after(runId, w.line, MAX_REPLAY + 1) : [];
      if (lines.length > MAX_REPLAY) return this.reset(w, stop);
      const rows = from ? this.core.logs.activity.after(runId, w.line) : [];
      const held = w.held ?? batch();
      w.held = null;
      this.sendLines(w, { lines: [...lines, ...held.lines], activity: [...rows, ...held.activity] });
    }
    return stop;
  }

  private reset(w: Watcher, stop: () => void): () => void {
    w.sink.deliver(frame('reset', { reason: 'too far behind; load the run again' }));
    return stop;
  }

  private onAppended(runId: string, events: readonly Stored[]): void {
    const set = this.watchers.get(runId);
    if (!set) return;
    // Watchers at the same place get the same text: built and encoded once per append, not per window.
    const shared = new Map<number, string>();
    for (const w of set) this.send(w, events.filter((e) => e.seq > w.seq), false, shared);
  }

  private onDetailChanged(runId: string): void {
    const shared = new Map<number, string>();
    for (const w of this.watchers.get(runId) ?? []) this.send(w, [], true, shared);
  }

  /**
   * One frame per append: the run's detail, the new thread rows and the new history events together,
   * under one id, so a connection cut between frames can never leave half an append delivered.
   * A fresh watch's first frame is the run as it is now (no rows, no events).
   */
  private send(w: Watcher, events: readonly Stored[], always: boolean, shared?: Map<number, string>): void {
    const s = this.core.runs.get(w.runId);
    if (!s || (!always && events.length === 0)) return;
    const from = w.seq;
    w.seq = Math.max(w.seq, events[events.length - 1]?.seq ?? 0, always ? s.seq : 0);
    let data = shared?.get(from);
    if (data === undefined) {
      const thread = events.map(threadRowOf).filter((r) => r !== null);
      data = frame('run', { run: detailOf(this.core, s), thread, history: events.map(historyEventOf) }).data;
      shared?.set(from, data);
    }
    w.sink.deliver({ event: 'run', data, id: this.id(w) });
  }

  private onLine(runId: string, item: LogLine | ActivityRow): void {
    const set = this.watchers.get(runId);
    if (!set) return;
    for (const w of set) {
      if (!w.log) continue;
      const to = w.held ?? this.pendingLines.get(w) ?? batch();
      if ('n' in item) to.lines.push(item); else to.activity.push(item);
      if (!w.held) this.pendingLines.set(w, to);
    }
    if (!this.timer && this.pendingLines.size) this.timer = setTimeout(() => this.flushLines(), LOG_FLUSH_MS);
  }

  private flushLines(): void {
    this.timer = null;
    for (const [w, lines] of this.pendingLines) this.sendLines(w, lines);
    this.pendingLines.clear();
  }

  private sendLines(w: Watcher, b: Batch): void {
    // Lines read back from the store and lines held while reading may overlap: keep each once, in order.
    const fresh: LogLine[] = [];
    for (const l of b.lines) if (l.n > (fresh[fresh.length - 1]?.n ?? w.line)) fresh.push(l);
    const activity = latestRows(b.activity);
    if (fresh.length === 0 && activity.length === 0) return;
    w.line = Math.max(w.line, fresh[fresh.length - 1]?.n ?? 0);
    w.sink.deliver(frame('log', { lines: fresh, ...(activity.length ? { activity } : {}) }, this.id(w)));
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
