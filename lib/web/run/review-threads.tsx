import type { VNode } from 'preact';
import { Thread, WHOLE_FILE, type ThreadActions } from './diff-threads.js';
import type { DraftComment } from './review-draft.js';
import type { ReviewFile, SentComment, Target } from './review.js';
import { anchorKey, type Anchor } from './row-mounts.js';

// Which thread goes under which line of one folder's drawing: a sent comment under the last line
// it stands on now (the server follows its lines, `now`), or where it was written once outdated;
// a draft under its last line; the open comment box under the line clicked. A whole-file comment
// sits at the file's top; each file's header has its own controls (`header`: Viewed, Comment on file).

interface Parts { at: Anchor; sent: SentComment[]; drafts: DraftComment[]; open: Target | null }

const lastLine = (c: { line: number; endLine?: number }): number => c.endLine ?? c.line;

export const threadsOf = (files: readonly ReviewFile[], sent: readonly SentComment[], drafts: readonly DraftComment[], open: Target | null,
  act: ThreadActions, header: (f: ReviewFile) => VNode): Map<string, { at: Anchor; view: VNode }> => {
  const groups = new Map<string, Parts>();
  const at = (path: string, where: Omit<Anchor, 'file'>): Parts | null => {
    const file = files.findIndex((f) => f.path === path);
    if (file < 0) return null;
    const a = { file, ...where };
    const k = anchorKey(a);
    if (!groups.has(k)) groups.set(k, { at: a, sent: [], drafts: [], open: null });
    return groups.get(k)!;
  };
  for (const c of sent) {
    const whole = c.body.startsWith(WHOLE_FILE.trim());
    const line = whole ? 'top' : !c.outdated && c.now ? lastLine(c.now) : lastLine(c);
    at(c.path, { side: c.side, line })?.sent.push(c);
  }
  for (const c of drafts) at(c.path, { side: c.side, line: c.body.startsWith(WHOLE_FILE.trim()) ? 'top' : lastLine(c) })?.drafts.push(c);
  if (open) { const g = at(open.path, { side: open.side, line: open.whole ? 'top' : lastLine(open) }); if (g) g.open = open; }
  const out = new Map<string, { at: Anchor; view: VNode }>();
  for (const [k, g] of groups) out.set(k, { at: g.at, view: <Thread parts={g} act={act} /> });
  files.forEach((f, file) => {
    const a: Anchor = { file, side: 'new', line: 'header' };
    out.set(anchorKey(a), { at: a, view: header(f) });
  });
  return out;
};

/** sent comments on files the diff no longer shows: listed above the diff, not lost */
export const elsewhere = (all: readonly ReviewFile[], sent: readonly SentComment[]): SentComment[] =>
  sent.filter((c) => !all.some((f) => f.path === c.path));
