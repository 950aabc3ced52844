import { randomBytes } from 'node:crypto';
import type { Journal } from '../../journal/journal.js';
import type { RunStreams } from '../state/run-stream.js';
import { boardRowJson, withWaiting, type ListedJson } from '../read-models/runs-board.js';
import type { RunState } from '../../projections/run-state.js';
import type { Sink } from './frames.js';

// The runs index scope (`/api/events?runs`): "this run changed, here is its new board row". Each
// append to a run moves a per-process change counter; the runs list (GET /api/runs) and the board
// (GET /api/board) say which counter value their body reflects, so a page loads the list once and
// then follows only changes.
// The journal has no order across streams, so the id is `runs:<epoch>:<tick>`: a resume in the
// same process is exact; another process (the server restarted) answers `reset` and the page
// loads the list again.

interface Watcher { sent: number; readonly sink: Sink }

const FLUSH_MS = 50;

export class RunsFeed {
  readonly epoch = randomBytes(6).toString('base64url');
  private tick = 0;
  /** run id -> the tick of its last change; Map order is change order (delete, then set) */
  private readonly changed = new Map<string, number>();
  private readonly watchers = new Set<Watcher>();
  /** runs changed since the last flush */
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /** waiting: why a queued run is held (its project's daily budget), added to its row as it is sent */
  constructor(private readonly runs: RunStreams, journal: Journal, private readonly listed: ListedJson = () => undefined, private readonly waiting: (s: RunState) => string | undefined = () => undefined) {
    journal.subscribe((stream) => {
      if (!stream.startsWith('run:')) return;
      const runId = stream.slice(4);
      this.changed.delete(runId);
      this.changed.set(runId, ++this.tick);
      if (this.watchers.size === 0) return;
      this.dirty.add(runId);
      // A burst of appends (an agent talking) is sent as one frame per flush, not one per event.
      if (!this.timer) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
    });
  }

  get size(): number {
    return this.watchers.size;
  }

  /** the change counter now */
  get now(): number {
    return this.tick;
  }

  cursor(): string {
    return `runs:${this.epoch}:${this.tick}`;
  }

  /** null: the id is not one this process gave out (restarted, or garbage): the client reloads. */
  parse(lastId: string): number | null {
    const m = /^runs:([\w-]+):(\d{1,15})$/.exec(lastId);
    return m && m[1] === this.epoch && Number(m[2]) <= this.tick ? Number(m[2]) : null;
  }

  /** Follows changes after `from` (a tick from parse), sending what the client missed at once. */
  watch(sink: Sink, from: number): () => void {
    const w: Watcher = { sent: from, sink };
    this.watchers.add(w);
    this.send(w, this.since(from));
    return () => { this.watchers.delete(w); };
  }

  private since(from: number): { id: string; tick: number }[] {
    const out: { id: string; tick: number }[] = [];
    for (const [id, tick] of this.changed) if (tick > from) out.push({ id, tick });
    return out;
  }

  // Every watcher is up to date with all but the dirty runs, so a flush looks at those only, and
  // serialises each row once for every watcher.
  private flush(): void {
    this.timer = null;
    const changes = [...this.dirty].map((id) => ({ id, tick: this.changed.get(id)! })).sort((a, b) => a.tick - b.tick);
    this.dirty.clear();
    const rows = new Map(changes.map((c) => [c.id, this.rowJson(c.id)]));
    for (const w of this.watchers) this.send(w, changes.filter((c) => c.tick > w.sent), rows);
  }

  private rowJson(runId: string): string | null {
    const s = this.runs.get(runId);
    return s ? withWaiting(boardRowJson(s, this.listed(runId)), s.lifecycle === 'queued' ? this.waiting(s) : undefined) : null;
  }

  private send(w: Watcher, changes: readonly { id: string; tick: number }[], rows?: ReadonlyMap<string, string | null>): void {
    if (changes.length === 0) return;
    const parts: string[] = [];
    for (const c of changes) {
      const json = rows ? rows.get(c.id) : this.rowJson(c.id);
      if (json) parts.push(json);
    }
    w.sent = changes[changes.length - 1]!.tick;
    w.sink.deliver({ event: 'runs', id: `runs:${this.epoch}:${w.sent}`, data: `{"rows":[${parts.join(',')}]}` });
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
