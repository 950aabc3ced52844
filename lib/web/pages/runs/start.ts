import { api, ApiError } from '../../api.js';
import type { BoardRow } from '../../data/runs-index.js';

// Starting runs that were created without starting: the control Resume, which queues a Created
// run, sent with the position the board row holds. One at a time, so each answer is its own; the
// board itself moves when the changes arrive over the stream.

export interface StartResult { readonly started: readonly string[]; readonly stale: readonly string[]; readonly refused: readonly string[] }

export const startRuns = async (rows: readonly BoardRow[]): Promise<StartResult> => {
  const started: string[] = [];
  const stale: string[] = [];
  const refused: string[] = [];
  for (const row of rows) {
    try {
      const r = await api<{ outcome: 'Applied' | 'Stale' }>(`runs/${encodeURIComponent(row.runId)}/control`, { body: { position: row.position, action: 'Resume' } });
      (r.outcome === 'Applied' ? started : stale).push(row.title);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      refused.push(`${row.title} (${err.detail})`);
    }
  }
  return { started, stale, refused };
};

const quoted = (titles: readonly string[]) => titles.map((t) => `“${t}”`).join(', ');

/** what to tell the person after a start */
export const startNote = (r: StartResult): string => [
  r.started.length ? `Started ${quoted(r.started)}: ${r.started.length === 1 ? 'it joins' : 'they join'} the queue.` : '',
  r.stale.length ? `${quoted(r.stale)} changed before the start reached ${r.stale.length === 1 ? 'it' : 'them'}; the board shows how things are now.` : '',
  r.refused.length ? `Not started: ${r.refused.join('; ')}.` : '',
].filter(Boolean).join(' ');
