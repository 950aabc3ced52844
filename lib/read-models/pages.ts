import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';
import { threadRow, type ThreadRow } from '../../projections/thread.js';
import type { ActivityRow } from '../state/activity-log.js';
import type { LogLine, LogStore } from '../state/log-store.js';
import { runStream } from '../state/run-stream.js';

// Pages over a run's journal and log. Each reads only the range it returns (history, log) or
// walks back from the cursor until the page is full (thread), never the whole run.

export interface HistoryEvent {
  readonly seq: number;
  readonly at: string;
  readonly type: string;
  readonly data?: unknown;
  readonly detail?: string;
}

/** One stored run event as history shows it (the push stream sends the same shape). */
export const historyEventOf = (s: Stored): HistoryEvent => {
  const d = decodeStored<RunEvent>(RUN_EVENT_CODECS, s);
  return isUnreadable(d) ? { seq: d.seq, at: d.at, type: 'Unreadable', detail: d.detail } : { seq: s.seq, at: s.at, type: d.type, data: (d as RunEvent).data };
};

/** One stored run event as a thread row, or null for an event that does not speak. */
export const threadRowOf = (s: Stored): ThreadRow | null => {
  const d = decodeStored<RunEvent>(RUN_EVENT_CODECS, s);
  const row = isUnreadable(d) ? { kind: 'note' as const, author: 'service' as const, text: `unreadable event: ${d.detail}` } : threadRow(d as RunEvent);
  return row ? { id: String(s.seq), at: s.at, ...row } : null;
};

export const historyPage = (journal: Journal, runId: string, before: number | undefined, size: number) => {
  const events = journal.page(runStream(runId), before, size).map(historyEventOf);
  const first = events[0]?.seq ?? 1;
  return { events, before: first > 1 ? first : null };
};

const BATCH = 200;

export const threadPage = (journal: Journal, runId: string, before: number | undefined, size: number) => {
  const rows: ThreadRow[] = [];
  let cursor = before;
  while (rows.length < size) {
    const raw = journal.page(runStream(runId), cursor, BATCH);
    if (raw.length === 0) break;
    const batch: ThreadRow[] = [];
    for (const s of raw) {
      const row = threadRowOf(s);
      if (row) batch.push(row);
    }
    rows.unshift(...batch.slice(Math.max(0, batch.length - (size - rows.length))));
    cursor = raw[0]!.seq;
    if (cursor <= 1) break;
  }
  const first = rows.length ? Number(rows[0]!.id) : 1;
  return { rows, before: first > 1 && rows.length === size ? String(first) : null };
};

export const logPage = (logs: LogStore, runId: string, before: number | undefined, size: number): { lines: LogLine[]; before: number | null } => {
  const lines = logs.page(runId, before, size);
  const first = lines[0]?.n ?? 1;
  return { lines, before: first > 1 ? first : null };
};

/** The run's tool calls, newest page first, outputs cut to a preview (the row's own read has it all). */
export const activityPage = (logs: LogStore, runId: string, before: number | undefined, size: number): { rows: ActivityRow[]; before: number | null } => {
  const rows = logs.activity.page(runId, before, size);
  const first = rows[0]?.id ?? 1;
  return { rows, before: first > 1 ? first : null };
};
