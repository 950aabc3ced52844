import type { Database, Key } from 'lmdb';
import type { Store } from '../../journal/store.js';
import type { ActivityKind, ActivityReport, ActivityStatus } from '../harness/activity.js';

// A run's activity: one row per tool call the agent made, in the order the calls started, kept
// beside the run's log lines (the log store's `activity` sub-database). Like log lines, rows are
// not events: they change nothing a run does. A row changes once, from `running` to `ok` or
// `error`, so of two copies of a row the ended one is always the newer.

export interface ActivityRow {
  /** 1, 2, … within the run */
  readonly id: number;
  readonly stepId: string;
  readonly callId: string;
  readonly tool: string;
  readonly kind: ActivityKind;
  readonly title: string;
  readonly path?: string;
  readonly status: ActivityStatus;
  /** the tool's output; in pages and push frames cut to OUTPUT_PREVIEW (`outputChars` is the whole length) */
  readonly output?: string;
  readonly outputChars?: number;
  readonly exitCode?: number;
  readonly startedAt: string;
  readonly endedAt?: string;
  /** the run's newest log line when the row last changed: where a push stream resume picks it up */
  readonly line: number;
}

/** how much output a page or push frame carries; GET /api/runs/{id}/activity/{row} has it all */
export const OUTPUT_PREVIEW = 2000;
/** how much output is kept at all */
const OUTPUT_KEPT = 64_000;

const keyOf = (runId: string, stepId: string, callId: string): string => `${runId}\u0000${stepId}\u0000${callId}`;

export const previewOf = (row: ActivityRow): ActivityRow =>
  row.output !== undefined && row.output.length > OUTPUT_PREVIEW ? { ...row, output: `${row.output.slice(0, OUTPUT_PREVIEW)}…` } : row;

export class ActivityLog {
  private readonly db: Database<ActivityRow, Key>;
  private readonly next = new Map<string, number>();
  /** calls started and not yet ended, by run, step and the CLI's call id */
  private readonly running = new Map<string, ActivityRow>();
  /** rows written and not yet committed (LMDB shows a batched write only once it commits) */
  private readonly unflushed = new Map<string, Map<number, ActivityRow>>();
  private readonly listeners = new Set<(runId: string, row: ActivityRow) => void>();

  constructor(store: Store, private readonly head: (runId: string) => number) {
    this.db = store.db<ActivityRow>('activity');
  }

  private last(runId: string): number {
    for (const key of this.db.getKeys({ start: [runId, Number.MAX_SAFE_INTEGER], end: [runId, 0], reverse: true, limit: 1 })) return (key as [string, number])[1];
    return 0;
  }

  /** Records one report of a step's tool call; returns the row as it now is (null: nothing to change). */
  record(runId: string, stepId: string, report: ActivityReport, now: string): ActivityRow | null {
    const key = keyOf(runId, stepId, report.callId);
    const open = this.running.get(key);
    if (report.phase === 'started') {
      if (open) return null; // the same call announced again (codex repeats it on completion)
      const id = (this.next.get(runId) ?? this.last(runId)) + 1;
      this.next.set(runId, id);
      const { phase: _, at, ...d } = report;
      const row: ActivityRow = { id, stepId, ...d, status: 'running', startedAt: at ?? now, line: this.head(runId) };
      this.running.set(key, row);
      return this.put(runId, row);
    }
    if (!open) return null; // an end for a call never seen starting: nothing to attach it to
    this.running.delete(key);
    return this.put(runId, this.ended(open, report.status, report.output, report.exitCode, report.at ?? now, runId));
  }

  /**
   * Ends the step's calls still running (the turn ended under them): each becomes an error saying
   * so. After a restart nothing is held in memory: `stored` looks through the run's stored rows.
   */
  endStep(runId: string, stepId: string, why: string, now: string, stored = false): void {
    const prefix = keyOf(runId, stepId, '');
    const open = new Map([...this.running].filter(([key]) => key.startsWith(prefix)));
    if (stored) {
      for (const { value } of this.db.getRange({ start: [runId, 1], end: [runId, Number.MAX_SAFE_INTEGER] })) {
        if (value.stepId === stepId && value.status === 'running') open.set(keyOf(runId, stepId, value.callId), value);
      }
    }
    for (const [key, row] of open) {
      this.running.delete(key);
      this.put(runId, this.ended(row, 'error', why, undefined, now, runId));
    }
  }

  private ended(row: ActivityRow, status: 'ok' | 'error', output: string | undefined, exitCode: number | undefined, at: string, runId: string): ActivityRow {
    const text = output ?? '';
    const kept = text.length > OUTPUT_KEPT ? `${text.slice(0, OUTPUT_KEPT)}…(cut)` : text;
    return { ...row, status, output: kept, outputChars: text.length, ...(exitCode !== undefined ? { exitCode } : {}), endedAt: at, line: this.head(runId) };
  }

  private put(runId: string, row: ActivityRow): ActivityRow {
    const held = this.unflushed.get(runId) ?? new Map<number, ActivityRow>();
    this.unflushed.set(runId, held);
    held.set(row.id, row);
    void this.db.put([runId, row.id], row).then(() => {
      if (held.get(row.id) === row) held.delete(row.id);
      if (held.size === 0 && this.unflushed.get(runId) === held) this.unflushed.delete(runId);
    });
    for (const l of this.listeners) l(runId, row);
    return row;
  }

  get(runId: string, id: number): ActivityRow | undefined {
    return this.unflushed.get(runId)?.get(id) ?? this.db.get([runId, id]);
  }

  /** Up to `size` rows before row `before` (default newest), oldest first, outputs cut to the preview. */
  page(runId: string, before: number | undefined, size: number): ActivityRow[] {
    const top = Math.min(before ?? Number.MAX_SAFE_INTEGER, (this.next.get(runId) ?? this.last(runId)) + 1) - 1;
    const out: ActivityRow[] = [];
    for (let id = top; id >= 1 && out.length < size; id--) {
      const row = this.get(runId, id);
      if (row) out.push(previewOf(row));
    }
    return out.reverse();
  }

  /** Every row of the run as it is now, whole, in order. */
  all(runId: string): ActivityRow[] {
    const rows = new Map<number, ActivityRow>();
    for (const { value } of this.db.getRange({ start: [runId, 1], end: [runId, Number.MAX_SAFE_INTEGER] })) rows.set(value.id, value);
    for (const row of this.unflushed.get(runId)?.values() ?? []) rows.set(row.id, row);
    return [...rows.values()].sort((a, b) => a.id - b.id);
  }

  /** Rows that changed after log line `line` (a push stream's resume), outputs cut to the preview. */
  after(runId: string, line: number): ActivityRow[] {
    return this.all(runId).filter((r) => r.line > line).map(previewOf);
  }

  subscribe(l: (runId: string, row: ActivityRow) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
