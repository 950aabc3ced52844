import { useEffect, useRef, useState } from 'preact/hooks';
import { placeOf, type DraftComment } from './review-draft.js';
import type { SentComment, Target } from './review.js';

// A review thread under a line of the diff, as code hosts draw it: the comments sent on that line
// (each marked Current while its code reads as quoted, Outdated once the agent changed it), the
// draft comments waiting to be sent (editable in place), and the box a click on the line number
// opens. Rendered into a row of the drawn diff (row-mounts.ts).

const input = (e: Event): string => (e.target as HTMLTextAreaElement).value;

export const WHOLE_FILE = '(whole file) ';

// a comment whose lines moved says where they are now, and where it was written
const sentPlace = (c: SentComment): string => {
  if (!c.now || (c.now.line === c.line && (c.now.endLine ?? c.now.line) === (c.endLine ?? c.line))) return placeOf(c);
  return `${placeOf({ ...c, ...c.now })} (written on ${c.endLine !== undefined ? `lines ${c.line}–${c.endLine}` : `line ${c.line}`})`;
};

const Sent = ({ c }: { readonly c: SentComment }) => (
  <li class={`thread-item sent${c.outdated ? ' outdated' : ''}`} data-outdated={String(c.outdated)} data-comment="sent">
    <p class="thread-meta">
      <span class="who">Sent to the agent</span> <code>{sentPlace(c)}</code>{' '}
      {c.outdated === null ? null : <span class={`badge ${c.outdated ? 'warning' : 'note'}`}>{c.outdated ? 'Outdated' : 'Current'}</span>}
    </p>
    <p class="prose">{c.body}</p>
  </li>
);

const Drafted = ({ c, onEdit, onRemove }: { readonly c: DraftComment; readonly onEdit: (body: string) => void; readonly onRemove: () => void }) => (
  <li class="thread-item draft" data-comment="draft">
    <label><span class="thread-meta"><span class="badge">Draft</span> Comment on <code>{placeOf(c)}</code></span>
      <textarea rows={2} value={c.body} onInput={(e) => onEdit(input(e))} />
    </label>
    <button type="button" onClick={onRemove}>Remove</button>
  </li>
);

/** the box a click on a line number opens under that line; Escape or Cancel closes it */
const CommentBox = ({ target, onAdd, onCancel }: { readonly target: Target; readonly onAdd: (body: string) => void; readonly onCancel: () => void }) => {
  const [body, setBody] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => { area.current?.focus({ preventScroll: true }); area.current?.scrollIntoView({ block: 'nearest' }); }, [target.path, target.line, target.endLine, target.whole]);
  const label = target.whole ? `Comment on the whole file ${target.path}` : `Comment on ${placeOf(target)}`;
  return (
    <form class="comment-box" aria-label={label} onSubmit={(e) => { e.preventDefault(); if (body.trim()) onAdd(body.trim()); }}
      onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); onCancel(); } }}>
      <label>{label}
        <textarea ref={area} rows={3} value={body} onInput={(e) => setBody(input(e))} />
      </label>
      <div class="row">
        <button type="submit" disabled={!body.trim()}>Add to review</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
};

export interface ThreadParts {
  readonly sent: readonly SentComment[];
  readonly drafts: readonly DraftComment[];
  readonly open: Target | null;
}

export interface ThreadActions {
  readonly edit: (id: string, body: string) => void;
  readonly remove: (id: string) => void;
  readonly add: (target: Target, body: string) => void;
  readonly cancel: () => void;
}

export const Thread = ({ parts, act }: { readonly parts: ThreadParts; readonly act: ThreadActions }) => (
  <div class="review-thread" data-thread="">
    {parts.sent.length + parts.drafts.length > 0 ? (
      <ol class="plain">
        {parts.sent.map((c) => <Sent key={`${c.reviewId}-${c.index}`} c={c} />)}
        {parts.drafts.map((c) => <Drafted key={c.id} c={c} onEdit={(b) => act.edit(c.id, b)} onRemove={() => act.remove(c.id)} />)}
      </ol>
    ) : null}
    {parts.open ? <CommentBox target={parts.open} onAdd={(b) => act.add(parts.open!, b)} onCancel={act.cancel} /> : null}
  </div>
);
