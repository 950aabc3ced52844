import type { ReviewComment } from '../../journal/run-events.js';
import { lines } from '../../projections/thread.js';
import { untrusted } from '../untrusted.js';

// The one message a review becomes for the agent: per comment where it is (`path:line` or
// `path:line-endLine`), the code it is about, and what the person said; then the summary. The
// comment and summary are the person's words to the agent; the quoted code comes from the
// worktree the agent wrote, so it is fenced as data like every such quote.

const place = (c: ReviewComment): string =>
  `${c.path}:${lines(c)}${c.side === 'old' ? ' (lines of the base, before your change)' : ''}`;

const one = (c: ReviewComment, i: number): string =>
  [`${i + 1}. ${place(c)}`, untrusted(`Code at ${c.path}:${lines(c)}`, c.quote), `Comment: ${c.body}`].join('\n');

export const reviewMessage = (comments: readonly ReviewComment[], summary: string | undefined): string =>
  [
    `Review of your changes: ${comments.length} comment${comments.length === 1 ? '' : 's'} on lines of the diff. Address each one in the code.`,
    ...comments.map(one),
    ...(summary ? [`Summary: ${summary}`] : []),
  ].join('\n\n');
