import { isLeft } from 'fp-ts/lib/Either.js';
import { deliverPullRequest } from '../codehost/deliver.js';
import { githubClient } from '../codehost/github.js';
import { originUrl, parseRepository } from '../codehost/origin.js';
import { gitOk } from '../git/git.js';
import type { RunState } from '../../projections/run-state.js';
import type { PullRequestRef } from '../../domain/runs.js';
import type { StepNode } from '../../domain/workflow.js';
import type { Settings } from '../../domain/settings.js';

// A deliver step: commit what the agents left uncommitted, push the run's branch of the primary
// folder, open a pull request against the branch the run started from.

export const commitLeftovers = async (dir: string, runId: string): Promise<void> => {
  const status = await gitOk(dir, ['status', '--porcelain']);
  if (status.trim() === '') return;
  await gitOk(dir, ['add', '-A']);
  const ident = (await gitOk(dir, ['config', 'user.email']).catch(() => '')).trim() ? [] : ['-c', 'user.name=svc', '-c', 'user.email=svc@localhost'];
  await gitOk(dir, [...ident, '-c', 'core.hooksPath=/dev/null', 'commit', '--no-verify', '--no-gpg-sign', '-m', `svc: work of run ${runId}`]);
};

/** the title and body a pull request of the run gets (lib/service/ship-pr.ts): the same as the app's Create pull request */
export type PullRequestText = (s: RunState) => { readonly title: string; readonly body: string };

/** `codeHost`: read at each delivery, so a changed setting counts from the next one */
export const deliverRun = (codeHost: () => Settings['codeHost'], text: PullRequestText) => async (s: RunState, node: StepNode): Promise<PullRequestRef> => {
  const checkout = s.checkouts?.[0];
  if (!checkout) throw new Error('the run has no worktree to deliver');
  const cfg = codeHost();
  const url = await originUrl(checkout.directory);
  const repo = url ? parseRepository(url, cfg.webHost) : undefined;
  if (!repo) throw new Error(`the origin of ${checkout.folder} is not on ${cfg.webHost}`);
  await commitLeftovers(checkout.directory, s.runId);
  const { title, body } = text(s);
  const r = await deliverPullRequest({
    checkoutPath: checkout.directory, branch: checkout.branch, base: checkout.baseBranch ?? node.attrs['base'] ?? 'main',
    owner: repo.owner, name: repo.name, title, body,
    draft: node.attrs['draft'] === 'true', client: githubClient(cfg),
  });
  if (isLeft(r)) throw new Error(r.left.detail);
  return r.right;
};
