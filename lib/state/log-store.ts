import type { Database, Key } from 'lmdb';
import type { Store } from '../../journal/store.js';
import { ActivityLog } from './activity-log.js';

// A run's log: service lines and agent output, merged in the order they happened. Lines are not
// events: they are many, and they never change what a run does.

export interface LogLine {
  readonly n: number;
  readonly at: string;
  readonly source: 'service' | 'agent';
  readonly text: string;
}

interface StoredLine { readonly at: string; readonly source: 'service' | 'agent'; readonly text: string }

const MAX_LINE = 16_000;

export class LogStore {
  private readonly db: Database<StoredLine, Key>;
  private readonly next = new Map<string, number>();
  private readonly listeners = new Set<(runId: string, line: LogLine) => void>();
  /** the agent's tool calls, one row each, kept beside the lines (lib/state/activity-log.ts) */
  readonly activity: ActivityLog;

  constructor(store: Store) {
    this.db = store.db<StoredLine>('log');
    this.activity = new ActivityLog(store, (runId) => this.head(runId));
  }

  private last(runId: string): number {
    for (const key of this.db.getKeys({ start: [runId, Number.MAX_SAFE_INTEGER], end: [runId, 0], reverse: true, limit: 1 })) {
      return (key as [string, number])[1];
    }
    return 0;
  }

  write(runId: string, source: LogLine['source'], text: string, at = new Date().toISOString()): LogLine {
    const n = (this.next.get(runId) ?? this.last(runId)) + 1;
    this.next.set(runId, n);
    const line = { at, source, text: text.length > MAX_LINE ? text.slice(0, MAX_LINE) + ' …(cut)' : text };
    // Batched by LMDB (not a synchronous commit): log lines are many and losing the last few on a
    // crash loses no work, unlike events.
    void this.db.put([runId, n], line);
    for (const l of this.listeners) l(runId, { n, ...line });
    return { n, ...line };
  }

  /** Up to `size` lines before line `before` (default newest), oldest first. */
  page(runId: string, before: number | undefined, size: number): LogLine[] {
    const start = (before ?? Number.MAX_SAFE_INTEGER) - 1;
    if (start < 1) return [];
    const out: LogLine[] = [];
    for (const { key, value } of this.db.getRange({ start: [runId, start], end: [runId, 0], reverse: true, limit: size })) {
      out.push({ n: (key as [string, number])[1], ...value });
    }
    return out.reverse();
  }

  /** number of the run's newest line (0 when it has none) */
  head(runId: string): number {
    return this.next.get(runId) ?? this.last(runId);
  }

  /** Up to `size` lines after line `after`, oldest first (the push stream's resume). */
  after(runId: string, after: number, size: number): LogLine[] {
    const out: LogLine[] = [];
    for (const { key, value } of this.db.getRange({ start: [runId, after + 1], end: [runId, Number.MAX_SAFE_INTEGER], limit: size })) out.push({ n: (key as [string, number])[1], ...value });
    return out;
  }

  all(runId: string): LogLine[] {
    const out: LogLine[] = [];
    for (const { key, value } of this.db.getRange({ start: [runId, 1], end: [runId, Number.MAX_SAFE_INTEGER] })) out.push({ n: (key as [string, number])[1], ...value });
    return out;
  }

  flushed(): Promise<boolean> {
    return this.db.flushed;
  }

  subscribe(l: (runId: string, line: LogLine) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
