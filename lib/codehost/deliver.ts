import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { git } from '../git/git.js';
import type { PullRequestRef } from '../../domain/runs.js';
import type { CodeHostClient } from './github.js';
import type { PullRequestRefusal } from './refusal.js';
import { withoutCredentials } from '../git/remote-url.js';

// The `deliver` step: push the run's branch to origin, then open a pull request from it.
// The push is never forced (a branch someone else moved on origin is theirs to keep) and skips
// the repository's hooks (a pre-push hook must not block or alter delivering the agent's work).

export interface DeliverInput {
  readonly checkoutPath: string;
  readonly branch: string;
  readonly base: string;
  readonly owner: string;
  readonly name: string;
  readonly title: string;
  readonly body: string;
  readonly draft?: boolean;
  readonly client: CodeHostClient;
}

export type DeliveryFailure =
  | { readonly _tag: 'BranchMissing'; readonly detail: string }
  | { readonly _tag: 'PushRejected'; readonly detail: string }
  | { readonly _tag: 'PushFailed'; readonly detail: string }
  | { readonly _tag: 'PullRequestRefused'; readonly detail: string; readonly refusal: PullRequestRefusal };

const PUSH_TIMEOUT_MS = 120_000;

const branchExists = async (checkoutPath: string, branch: string): Promise<boolean> =>
  (await git(checkoutPath, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).code === 0;

// What git said, on one line without blanks or hints, short enough for an event or a refusal.
const gitWords = (output: string): string => {
  const said = withoutCredentials(output).split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('hint:')).join(' | ');
  return said.length > 500 ? `${said.slice(0, 500)}…` : said || 'git said nothing';
};

// git's words for "origin has commits you lack": a non-fast-forward rejection.
const isRejected = (stderr: string): boolean => /\[rejected\]|non-fast-forward|fetch first/.test(stderr);

export const pushBranch = async (checkoutPath: string, branch: string): Promise<Either<DeliveryFailure, void>> => {
  if (!(await branchExists(checkoutPath, branch))) {
    return left({ _tag: 'BranchMissing', detail: `the checkout ${checkoutPath} has no branch ${branch} to deliver` });
  }
  // explicit refspec without '+': only a fast-forward is accepted on origin
  const refspec = `refs/heads/${branch}:refs/heads/${branch}`;
  // --no-verify skips pre-push; the empty hooks path also silences reference-transaction and the rest
  const args = ['-c', 'core.hooksPath=/dev/null', 'push', '--no-verify', '--porcelain', 'origin', refspec];
  const r = await git(checkoutPath, args, { timeoutMs: PUSH_TIMEOUT_MS });
  if (r.code === 0) return right(undefined);
  const said = gitWords(r.stderr + '\n' + r.stdout);
  return isRejected(r.stderr + r.stdout)
    ? left({ _tag: 'PushRejected', detail: `origin's ${branch} has commits this checkout lacks; not forced: ${said}` })
    : left({ _tag: 'PushFailed', detail: `pushing ${branch} to origin failed: ${said}` });
};

/** Push `branch` to origin and open a pull request into `base`; the ref is what the run records. */
export const deliverPullRequest = async (input: DeliverInput): Promise<Either<DeliveryFailure, PullRequestRef>> => {
  const pushed = await pushBranch(input.checkoutPath, input.branch);
  if (pushed._tag === 'Left') return pushed;
  const { owner, name, base, branch, title, body } = input;
  const created = await input.client.createPullRequest({ owner, name, base, head: branch, title, body, draft: input.draft ?? false });
  if (created._tag === 'Left') {
    const refusal = created.left;
    return left({ _tag: 'PullRequestRefused', refusal, detail: `pushed ${branch}, but no pull request was opened: ${refusal.detail}` });
  }
  return right({ repository: `${owner}/${name}`, number: created.right.number, url: created.right.url });
};
