import type { CycleCause } from '../../journal/run-events.js';
import { untrusted } from '../untrusted.js';

// The words of a pull request loop turn. What the code host reports (check output, reviewers'
// comments) is fenced as data: the agent acts on the run's goal, reading those as evidence.

const TAIL = 'Commit nothing yourself unless you want to: svc commits what you leave and pushes it to the pull request\'s branch. ' +
  'End with a short summary of what you changed (it is posted as the reply where people asked).';

const checksText = (c: Extract<CycleCause, { _tag: 'Checks' }>): string =>
  [`Required checks fail on pull request head ${c.headCommit}:`,
    ...c.failing.map((f) => `- ${f.name}: ${f.conclusion}\n${untrusted(`What ${f.name} reported`, f.excerpt || '(the check reported no output)')}`),
    'Fix the code so these checks pass.'].join('\n');

const threadsText = (c: Extract<CycleCause, { _tag: 'Threads' }>): string =>
  ['Reviewers left these unresolved review threads on the pull request:',
    ...c.threads.map((t) => `- ${t.path}${t.line !== null ? `:${t.line}` : ''} (from ${t.author ?? 'ghost'})\n${untrusted(`Thread on ${t.path}`, t.body)}`),
    'Address each of them in the code.'].join('\n');

const conflictText = (c: Extract<CycleCause, { _tag: 'Conflict' }>, files: readonly string[]): string =>
  [`The pull request conflicts with its base branch ${c.base}. Merging origin/${c.base} (fetched just now) into this branch conflicts in:`,
    ...files.map((f) => `- ${f}`),
    `Run \`git merge origin/${c.base}\`, resolve the conflicts in these files keeping both sides' intent, \`git add\` them and finish the merge with \`git commit --no-edit\`.`].join('\n');

/** `thread`: set when the CLI cannot resume the run's session: what the run did (commands/follow-up.ts threadSummary) */
export const cyclePrompt = (cause: CycleCause, o: { thread?: string; conflictFiles?: readonly string[] }): string => {
  const intro = o.thread !== undefined
    ? `You are continuing the work of a run whose pull request is open.\n${untrusted('What the run did so far', o.thread)}\n\n`
    : 'Your work is now an open pull request. ';
  const body = cause._tag === 'Checks' ? checksText(cause) : cause._tag === 'Threads' ? threadsText(cause) : conflictText(cause, o.conflictFiles ?? []);
  return `${intro}${body}\n\n${TAIL}`;
};
