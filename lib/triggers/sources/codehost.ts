import { ClientError, GraphQLClient } from 'graphql-request';
import type { TriggerSource } from '../../../journal/trigger-events.js';
import { resolveToken } from '../../codehost/config.js';
import { refusalFromError } from '../../codehost/refusal.js';
import { commandEvents, labeledEvents } from './codehost-events.js';
import { LABELED_ISSUES_QUERY, PULL_REQUEST_COMMENTS_QUERY, type LabeledIssuesAnswer, type PullRequestCommentsAnswer } from './codehost-queries.js';
import { failing, type IncomingEvent, type SourceContext, type RunningSource } from './source.js';

// CodeHost: a local server has no public address for GitHub's webhooks, so the rule polls the
// GraphQL API (Settings CodeHost/CodeHostToken, else GH_TOKEN) every TriggerPollInterval seconds.
// It keeps to the host's budget: when x-ratelimit-remaining (or the answer's rateLimit) runs low,
// the next poll waits for x-ratelimit-reset (or rateLimit.resetAt), whichever is later.

type CodeHost = Extract<TriggerSource, { _tag: 'CodeHost' }>;

/** polls left in reserve: below this the poller waits for the budget to reset */
export const RATE_RESERVE = 20;
const REQUEST_TIMEOUT_MS = 30_000;

export interface Budget { readonly remaining: number | null; readonly resetAt: Date | null }
const NO_BUDGET: Budget = { remaining: null, resetAt: null };

const headerBudget = (headers: Headers | undefined): Budget => {
  const remaining = headers?.get('x-ratelimit-remaining');
  const reset = headers?.get('x-ratelimit-reset');
  return {
    remaining: remaining != null && /^\d+$/.test(remaining) ? Number(remaining) : null,
    resetAt: reset != null && /^\d+$/.test(reset) ? new Date(Number(reset) * 1000) : null,
  };
};

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const laterDate = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a > b ? a : b);
const merge = (a: Budget, b: Budget): Budget => ({ remaining: lower(a.remaining, b.remaining), resetAt: laterDate(a.resetAt, b.resetAt) });

/** when to poll next: after the interval, or once the budget resets when it is nearly spent */
export const nextPollAt = (now: Date, intervalSeconds: number, budget: Budget): Date => {
  const regular = new Date(now.getTime() + intervalSeconds * 1000);
  if (budget.remaining === null || budget.remaining > RATE_RESERVE || budget.resetAt === null) return regular;
  return budget.resetAt > regular ? budget.resetAt : regular;
};

interface Poll { readonly events: IncomingEvent[]; readonly budget: Budget; readonly failure: string | null }

const request = async <T extends { rateLimit: { remaining: number; resetAt: string } | null }>(client: GraphQLClient, doc: string, vars: Record<string, string>): Promise<{ data: T; budget: Budget }> => {
  const r = await client.rawRequest<T>(doc, vars);
  const answered: Budget = r.data.rateLimit ? { remaining: r.data.rateLimit.remaining, resetAt: new Date(r.data.rateLimit.resetAt) } : NO_BUDGET;
  return { data: r.data, budget: merge(headerBudget(r.headers), answered) };
};

const pollOnce = async (ctx: SourceContext, s: CodeHost, token: string): Promise<Poll> => {
  const settings = ctx.settings().codeHost;
  const client = new GraphQLClient(settings.graphqlUrl, { headers: { authorization: `bearer ${token}` }, signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
  const [owner, name] = s.repository.split('/') as [string, string];
  const since = ctx.rule.createdAt;
  const events: IncomingEvent[] = [];
  let budget = NO_BUDGET;
  try {
    if (s.label !== undefined) {
      const r = await request<LabeledIssuesAnswer>(client, LABELED_ISSUES_QUERY, { owner, name, label: s.label, since });
      events.push(...labeledEvents(r.data, s.repository, s.label, since));
      budget = merge(budget, r.budget);
    }
    if (s.command !== undefined) {
      const r = await request<PullRequestCommentsAnswer>(client, PULL_REQUEST_COMMENTS_QUERY, { owner, name });
      events.push(...commandEvents(r.data, s.repository, s.command, since));
      budget = merge(budget, r.budget);
    }
    return { events, budget, failure: null };
  } catch (error) {
    const limited = error instanceof ClientError ? headerBudget(error.response.headers as Headers | undefined) : NO_BUDGET;
    return { events, budget: merge(budget, limited), failure: refusalFromError(error, `repository ${s.repository}`).detail };
  }
};

const NO_TOKEN = 'no code host token: set CodeHostToken in Settings, or GH_TOKEN in the server\'s environment';

const cycle = async (ctx: SourceContext, s: CodeHost): Promise<Date> => {
  const interval = ctx.settings().triggerPollSeconds;
  const token = resolveToken({ ...ctx.settings().codeHost });
  if (token === null) {
    failing(ctx, NO_TOKEN);
    return nextPollAt(ctx.clock.now(), interval, NO_BUDGET);
  }
  const poll = await pollOnce(ctx, s, token);
  for (const e of poll.events) await ctx.emit(e);
  const next = nextPollAt(ctx.clock.now(), interval, poll.budget);
  if (poll.failure !== null) failing(ctx, poll.failure);
  else ctx.status({ _tag: 'Watching', detail: `polled ${s.repository} at ${ctx.clock.now().toISOString()}; next poll at ${next.toISOString()}${poll.budget.remaining !== null ? ` (${poll.budget.remaining} requests left)` : ''}` });
  return next;
};

export const startCodeHost = (ctx: SourceContext, s: CodeHost): RunningSource => {
  const loop = async () => {
    while (!ctx.signal.aborted) {
      const next = await cycle(ctx, s).catch((err: unknown) => {
        failing(ctx, `polling failed: ${String(err)}`);
        return nextPollAt(ctx.clock.now(), ctx.settings().triggerPollSeconds, NO_BUDGET);
      });
      await ctx.clock.sleepUntil(next, ctx.signal);
    }
  };
  const running = loop();
  return { stop: async () => { await running; } };
};
