import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideRecordPullRequest } from '../../commands/ship.js';
import { conflict, invalid, notFound, type Outcome } from '../../commands/refusal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import { RUN_EVENT_CODECS, type Checkout, type RunEvent } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { deliverPullRequest } from '../codehost/deliver.js';
import { githubClient, type CodeHostClient } from '../codehost/github.js';
import { originUrl, parseRepository, type RepositoryName } from '../codehost/origin.js';
import { pullRequestBody, pullRequestTitle, type RunStory } from '../codehost/pull-request-text.js';
import { checkoutGit, errorText } from '../git/checkout-git.js';
import { gitReason, NO_HOOKS } from '../git/git.js';
import { commitAll } from '../git/secure.js';
import { publishBranch } from '../git/run-clones.js';
import { runStream } from '../state/run-stream.js';
import type { Actor, PullRequestRef } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf, projectOf } from '../read-models/run-detail.js';
import { noWorktree } from '../../commands/worktree.js';
import { withoutCredentials } from '../git/remote-url.js';

// POST /api/runs/{id}/pull-request and open_pull_request: push the run's branch of its primary
// folder (never forced, no hooks) and open a pull request from it, then record PullRequestOpened.
// Uncommitted work is committed first, as Secure work does: what the person saw in the diff is what
// the pull request holds. Each refusal is checked before anything is pushed, where it can be.

export interface OpenPullRequestInput { readonly draft?: boolean; readonly base?: string; readonly title?: string; readonly body?: string }

const FETCH_TIMEOUT_MS = 120_000;

/** the primary folder's checkout: the one a pull request is opened from, as `deliver` does */
export const primaryCheckout = (core: ServiceCore, s: RunState): Checkout | undefined => {
  const primary = projectOf(core, s)?.primaryFolder;
  return s.checkouts?.find((c) => c.folder === primary) ?? s.checkouts?.[0];
};

// What the run says of itself, read from its journal: every step's end, and the agent's last summary.
const storyOf = (core: ServiceCore, s: RunState, runUrl: string): RunStory => {
  const steps: { node: string; outcome: string; summary: string }[] = [];
  let summary: string | null = null;
  for (const stored of core.journal.read(runStream(s.runId))) {
    const e = decodeStored<RunEvent>(RUN_EVENT_CODECS, stored);
    if (isUnreadable(e)) continue;
    if (e.type === 'StepSucceeded') steps.push({ node: e.data.node, outcome: 'succeeded', summary: e.data.summary });
    if (e.type === 'StepFailed') steps.push({ node: e.data.node, outcome: 'failed', summary: e.data.summary });
    if (e.type === 'StepInterrupted') steps.push({ node: e.data.node, outcome: 'interrupted', summary: e.data.reason });
    if (e.type === 'OutcomeReported' || e.type === 'AgentReplied') summary = 'summary' in e.data ? e.data.summary : e.data.text;
  }
  return { runId: s.runId, title: s.title, goal: s.goal, summary, steps, runUrl };
};

// An open pull request the run already has: its branch can have only one (the code host says so too).
const openOne = async (s: RunState, client: CodeHostClient): Promise<PullRequestRef | undefined> => {
  for (const pr of [...s.pullRequests].reverse()) {
    const [owner, name] = pr.repository.split('/');
    const read = await client.readPullRequest(owner ?? '', name ?? '', pr.number);
    if (!isLeft(read) && read.right.state === 'OPEN') return pr;
  }
  return undefined;
};

// Origin's tip of the base branch, fetched so the run's branch can be compared with it.
const commitsPastBase = async (dir: string, base: string): Promise<Outcome<number>> => {
  const fetched = await checkoutGit(dir, [...NO_HOOKS, 'fetch', '--no-tags', '--quiet', 'origin', `refs/heads/${base}`], { timeoutMs: FETCH_TIMEOUT_MS });
  if (fetched.code !== 0) {
    const missing = /couldn't find remote ref/i.test(fetched.stderr);
    return left(conflict(missing ? `origin has no branch ${base} to open the pull request into` : `could not read origin's ${base}: ${gitReason(fetched)}`));
  }
  const count = await checkoutGit(dir, ['rev-list', '--count', 'FETCH_HEAD..HEAD']);
  return count.code === 0 ? right(Number(count.stdout.trim())) : left(conflict(`could not compare with origin's ${base}: ${gitReason(count)}`));
};

interface Where { readonly c: Checkout; readonly repo: RepositoryName; readonly base: string; readonly client: CodeHostClient }

const where = async (core: ServiceCore, s: RunState, base: string | undefined): Promise<Outcome<Where>> => {
  const c = primaryCheckout(core, s);
  if (!c) return left(noWorktree(s, 'there is nothing to push'));
  const cfg = core.settings.current.codeHost;
  const url = await originUrl(c.directory);
  const repo = url ? parseRepository(url, cfg.webHost) : undefined;
  if (!url) return left(conflict(`folder ${c.folder} has no origin remote: there is no code host to open a pull request on (merge locally instead)`));
  if (!repo) return left(conflict(`folder ${c.folder}'s origin ${withoutCredentials(url)} is not on the code host ${cfg.webHost} (see Settings): no pull request can be opened`));
  const chosen = base ?? c.baseBranch ?? undefined;
  if (!chosen) return left(invalid('the run began on a detached HEAD, so it has no base branch: name one (base)'));
  return right({ c, repo, base: chosen, client: githubClient(cfg) });
};

export const openPullRequest = async (core: ServiceCore, runId: string, input: OpenPullRequestInput, runUrl: string, by: Actor): Promise<Outcome<{ run: RunDetail; pullRequest: PullRequestRef }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const w = await where(core, s, input.base);
  if (isLeft(w)) return w;
  const { c, repo, base, client } = w.right;
  const open = await openOne(s, client);
  if (open) return left(conflict(`the run already has an open pull request for its branch ${c.branch}: ${open.url}`));
  try {
    await commitAll(c.directory, runId);
  } catch (e) {
    return left(conflict(`could not commit the run's uncommitted changes: ${errorText(e)}`));
  }
  // what is pushed is on the run's branch in the person's own repository too, as after Secure work
  if (c.clone) {
    try {
      await publishBranch(c);
    } catch (e) {
      return left(conflict(errorText(e)));
    }
  }
  const ahead = await commitsPastBase(c.directory, base);
  if (isLeft(ahead)) return ahead;
  if (ahead.right === 0) return left(conflict(`nothing to push: ${c.branch} has no commits that origin's ${base} lacks, and no uncommitted changes`));
  const story = storyOf(core, s, runUrl);
  const draft = input.draft ?? false;
  const made = await deliverPullRequest({
    checkoutPath: c.directory, branch: c.branch, base, owner: repo.owner, name: repo.name, draft, client,
    title: input.title ?? pullRequestTitle(story), body: input.body ?? pullRequestBody(story),
  });
  if (isLeft(made)) return left(conflict(made.left.detail));
  core.runs.transact(runId, (now) => (now ? decideRecordPullRequest(now, { pullRequest: made.right, base, draft, by }) : left(notFound('run', runId))), { at: core.now().toISOString(), onStale: 'retry' });
  return right({ run: detailOf(core, core.runs.get(runId) ?? s), pullRequest: made.right });
};

/** what a pull request of the run says when nobody wrote its text: the app's form, open_pull_request and a deliver step alike */
export const pullRequestTextOf = (core: ServiceCore, s: RunState, runUrl: string): { title: string; body: string } => {
  const story = storyOf(core, s, runUrl);
  return { title: pullRequestTitle(story), body: pullRequestBody(story) };
};

/** the title and body the app prefills its form with: what a pull request would say if opened now */
export const pullRequestDraft = (core: ServiceCore, runId: string, runUrl: string): Outcome<{ title: string; body: string; base: string | null }> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const story = storyOf(core, s, runUrl);
  return right({ title: pullRequestTitle(story), body: pullRequestBody(story), base: primaryCheckout(core, s)?.baseBranch ?? null });
};
