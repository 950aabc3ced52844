import type { BoardRow } from '../data/runs-index.js';
import { needsKind, type NoticeKind } from './count.js';

// Which rows are news worth a browser notification. A notice's key is the run, the kind and the
// run's position (the seq of the event that put it there), so one question is one notice however
// often the row is sent again (reconnects, other changes to the run), and a second question is a
// second notice.

export interface Notice {
  readonly key: string;
  readonly kind: NoticeKind;
  readonly runId: string;
  readonly title: string;
  readonly body: string;
}

const BODIES: Readonly<Record<NoticeKind, string>> = { question: 'The run asks a question.', gate: 'The run waits at a gate.', failed: 'The run failed.' };

export const noticeOf = (r: BoardRow): Notice | null => {
  const kind = needsKind(r);
  return kind ? { key: `${r.runId}:${kind}:${r.position}`, kind, runId: r.runId, title: r.title, body: BODIES[kind] } : null;
};

/** the notices among rows not in `seen` */
export const freshNotices = (rows: Iterable<BoardRow>, seen: ReadonlySet<string>): Notice[] => {
  const out: Notice[] = [];
  for (const r of rows) {
    const n = noticeOf(r);
    if (n && !seen.has(n.key)) out.push(n);
  }
  return out;
};
