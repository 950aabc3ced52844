import { useEffect, useState } from 'preact/hooks';

// A review being written: comments on lines of the run's diff and a summary, kept in this browser
// (localStorage, one draft per run) so a reload or a tab switch loses nothing until it is sent or
// discarded. The path is the one the server checks: the diff's, prefixed with the folder when the
// run has several.

export interface DraftComment {
  readonly id: string;
  readonly path: string;
  readonly side: 'new' | 'old';
  readonly line: number;
  readonly endLine?: number;
  readonly body: string;
}

export interface Draft { readonly comments: readonly DraftComment[]; readonly summary: string }

const EMPTY: Draft = { comments: [], summary: '' };
const keyOf = (runId: string): string => `svc.review-draft.${runId}`;

const load = (runId: string): Draft => {
  try {
    const v = JSON.parse(localStorage.getItem(keyOf(runId)) ?? 'null') as Draft | null;
    return v && Array.isArray(v.comments) ? { comments: v.comments, summary: typeof v.summary === 'string' ? v.summary : '' } : EMPTY;
  } catch {
    return EMPTY; // a draft this browser cannot read is not worth an error page
  }
};

export const useDraft = (runId: string): [Draft, (d: Draft) => void] => {
  const [draft, setDraft] = useState<Draft>(() => load(runId));
  useEffect(() => setDraft(load(runId)), [runId]);
  const save = (d: Draft): void => {
    setDraft(d);
    if (d.comments.length === 0 && !d.summary.trim()) localStorage.removeItem(keyOf(runId));
    else localStorage.setItem(keyOf(runId), JSON.stringify(d));
  };
  return [draft, save];
};

export const placeOf = (c: { path: string; line: number; endLine?: number; side: string }): string =>
  `${c.path}:${c.endLine !== undefined && c.endLine !== c.line ? `${c.line}-${c.endLine}` : c.line}${c.side === 'old' ? ' (old)' : ''}`;
