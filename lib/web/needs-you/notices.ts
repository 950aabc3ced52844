import type { BoardRow } from '../data/runs-index.js';
import type { NoticeKind } from './count.js';
import { rowNeeds } from '../pages/runs/groups.js';
import type { PendingCard } from './cards.js';

// Which rows are news worth a browser notification. A notice's key is the run, the kind and the
// run's position (the seq of the event that put it there), so one question is one notice however
// often the row is sent again (reconnects, other changes to the run), and a second question is a
// second notice.

export interface Notice {
  readonly key: string;
  readonly kind: NoticeKind;
  /** where a click goes: the run's page, or the Supervisors page for a card about no run */
  readonly href: string;
  readonly runId: string;
  readonly title: string;
  readonly body: string;
}

const BODIES: Readonly<Record<Exclude<NoticeKind, 'card'>, string>> = {
  question: 'The run asks a question.', gate: 'The run waits at a gate.', failed: 'The run failed.', paused: 'svc paused the run; it waits for you.',
};

// a pause by svc says which (Budget reached, Harness problem, Cycle limit reached) before the rest
export const noticeOf = (r: BoardRow): Notice | null => {
  const needs = rowNeeds(r);
  if (!needs || needs.kind === 'card') return null;
  const body = needs.kind === 'paused' ? `${needs.label}: ${BODIES.paused}` : BODIES[needs.kind];
  return { key: `${r.runId}:${needs.kind}:${r.position}`, kind: needs.kind, href: runHref(r.runId), runId: r.runId, title: r.title, body };
};

const runHref = (runId: string): string => `/runs/${encodeURIComponent(runId)}`;


export const cardNotice = (c: PendingCard, runTitle: (runId: string) => string | undefined): Notice => ({
  key: `card:${c.supervisor}:${c.card}`, kind: 'card', href: c.run ? runHref(c.run) : '/supervisors', runId: c.run ?? '',
  title: (c.run && runTitle(c.run)) || 'A supervisor card', body: `A supervisor asks to ${c.tool}.`,
});

/** the notices among rows not in `seen` */
export const freshNotices = (rows: Iterable<BoardRow>, seen: ReadonlySet<string>): Notice[] => {
  const out: Notice[] = [];
  for (const r of rows) {
    const n = noticeOf(r);
    if (n && !seen.has(n.key)) out.push(n);
  }
  return out;
};

export const freshCardNotices = (cards: readonly PendingCard[], runs: ReadonlyMap<string, BoardRow>, seen: ReadonlySet<string>): Notice[] =>
  cards.map((c) => cardNotice(c, (id) => runs.get(id)?.title)).filter((n) => !seen.has(n.key));
