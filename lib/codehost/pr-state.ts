import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { PullRequestSeen } from '../../commands/pr-loop.js';
import { checkRunOutcome, statusContextOutcome } from './check-outcome.js';
import { type CheckOutcome } from '../../domain/pull-request.js';
import type { CodeHostConfig } from './config.js';
import { attempt, clientFor } from './github.js';
import { PULL_REQUEST_LOOP_QUERY, type PullRequestLoopAnswer, type RawLoopContext, type RawLoopThread } from './loop-queries.js';
import { notHeld, type PullRequestRefusal } from './refusal.js';

// The one read of a watched pull request's state (the loop's poll; auto-merge hooks in beside it):
// head, checks with their excerpts, threads with ids, mergeability, and the API budget left.

/** svc's own replies carry this marker, so a thread svc wrote is never taken for a person's */
export const SVC_MARKER = '<!-- svc:pr-loop -->';

/** how much of one check's output the agent is given */
export const EXCERPT_CAP = 4000;

export interface CheckState {
  readonly name: string;
  readonly required: boolean;
  readonly outcome: CheckOutcome;
  /** the host's word: a check run's conclusion (or status while running), a status's state */
  readonly conclusion: string;
  /** what the check reported: summary, text and annotations (capped) */
  readonly excerpt: string;
}

export interface ThreadState {
  readonly id: string;
  readonly resolved: boolean;
  readonly outdated: boolean;
  readonly path: string;
  readonly line: number | null;
  readonly comments: readonly { readonly id: string; readonly author: string | null; readonly body: string }[];
}

export interface PullRequestState {
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly headCommit: string;
  readonly base: string;
  readonly mergeable: string;
  readonly checks: readonly CheckState[];
  readonly threads: readonly ThreadState[];
}

/** what the host says is left of the API budget, and when it is refilled */
export interface Budget {
  readonly remaining: number;
  readonly resetAt: string;
}

type Nodes<T> = { readonly nodes?: readonly (T | null)[] | null } | null | undefined;
const present = <T>(c: Nodes<T>): T[] => (c?.nodes ?? []).filter((n): n is T => n !== null && n !== undefined);

const cap = (text: string): string => (text.length > EXCERPT_CAP ? `${text.slice(0, EXCERPT_CAP)}\n… (cut at ${EXCERPT_CAP} characters)` : text);

const checkState = (c: RawLoopContext): CheckState | null => {
  if (c.__typename === 'StatusContext') {
    return { name: c.context, required: c.isRequired, outcome: statusContextOutcome(c.state), conclusion: c.state, excerpt: cap(c.description ?? '') };
  }
  if (c.__typename !== 'CheckRun') return null;
  const notes = present(c.annotations).map((a) => `${a.path}:${a.location.start.line}: ${a.title ? `${a.title}: ` : ''}${a.message}`);
  const excerpt = [c.summary, c.text, ...notes].filter((t): t is string => !!t && t.trim() !== '').join('\n');
  const conclusion = c.status === 'COMPLETED' && c.conclusion !== null ? c.conclusion : c.status;
  return { name: c.name, required: c.isRequired, outcome: checkRunOutcome(c.status, c.conclusion), conclusion, excerpt: cap(excerpt) };
};

const threadState = (t: RawLoopThread): ThreadState => ({
  id: t.id, resolved: t.isResolved, outdated: t.isOutdated, path: t.path, line: t.line ?? null,
  comments: present(t.comments).map((c) => ({ id: c.id, author: c.author?.login ?? null, body: c.body })),
});

// the lower of the two readings (headers and the rateLimit field), and the later reset
const budgetOf = (headers: Headers, field: Budget | null): Budget | null => {
  const left = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  const fromHeaders = left !== null && reset !== null ? { remaining: Number(left), resetAt: new Date(Number(reset) * 1000).toISOString() } : null;
  const all = [fromHeaders, field].filter((b): b is Budget => b !== null && Number.isFinite(b.remaining) && !Number.isNaN(Date.parse(b.resetAt)));
  if (all.length === 0) return null;
  return { remaining: Math.min(...all.map((b) => b.remaining)), resetAt: all.map((b) => b.resetAt).sort().at(-1)! };
};

export const readPullRequestState = async (config: CodeHostConfig, owner: string, name: string, number: number): Promise<Either<PullRequestRefusal, { state: PullRequestState; budget: Budget | null }>> => {
  const subject = `pull request ${owner}/${name}#${number}`;
  const answer = await attempt(subject, () => clientFor(config).rawRequest<PullRequestLoopAnswer>(PULL_REQUEST_LOOP_QUERY, { owner, name, n: number }));
  if (answer._tag === 'Left') return answer;
  const pr = answer.right.data.repository?.pullRequest;
  if (!pr) return left(notHeld(subject));
  const state: PullRequestState = {
    state: pr.state, headCommit: pr.headRefOid, base: pr.baseRefName, mergeable: pr.mergeable,
    checks: present(pr.statusCheckRollup?.contexts).map(checkState).filter((c): c is CheckState => c !== null),
    threads: present(pr.reviewThreads).map(threadState),
  };
  return right({ state, budget: budgetOf(answer.right.headers, answer.right.data.rateLimit) });
};

const byPerson = (t: ThreadState): boolean => t.comments.length > 0 && !t.comments[0]!.body.includes(SVC_MARKER);

/** the part of the state the loop acts on: required checks failing on the head, people's open threads */
export const loopSeen = (s: PullRequestState): PullRequestSeen => ({
  state: s.state, headCommit: s.headCommit, base: s.base, mergeable: s.mergeable,
  failing: s.checks.filter((c) => c.required && c.outcome === 'Failing').map((c) => ({ name: c.name, conclusion: c.conclusion, excerpt: c.excerpt })),
  threads: s.threads.filter((t) => !t.resolved && !t.outdated && byPerson(t)).map((t) => ({
    id: t.id, author: t.comments[0]!.author, path: t.path, line: t.line, body: t.comments.map((c) => `${c.author ?? 'ghost'}: ${c.body}`).join('\n\n'), commentIds: t.comments.map((c) => c.id),
  })),
});
