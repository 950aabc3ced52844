import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { CodeHostConfig } from './config.js';
import { attempt, clientFor } from './github.js';
import { type PullRequestRefusal, notHeld, refuse } from './refusal.js';
import type { MergeMethod } from '../../domain/pull-request.js';

// The code host's side of auto-merge: what the repository allows and the pull request's node id
// (one small query, asked only for projects that turned auto-merge on), then one of GitHub's two
// merge mutations. Both carry expectedHeadOid: the host refuses if the head moved after the
// decision was taken, so svc never merges a commit its decision did not look at.

export interface MergeTarget {
  readonly pullRequestId: string;
  readonly autoMergeAllowed: boolean;
}

export interface MergeAnswer {
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly mergeCommit: string | null;
  readonly autoMerge: boolean;
}

const TARGET_QUERY = /* GraphQL */ `
  query SvcMergeTarget($owner: String!, $name: String!, $n: Int!) {
    repository(owner: $owner, name: $name) { autoMergeAllowed pullRequest(number: $n) { id } }
  }
`;

const ANSWER = 'pullRequest { state mergeCommit { oid } autoMergeRequest { enabledAt } }';

const MERGE_MUTATION = /* GraphQL */ `
  mutation SvcMergePullRequest($input: MergePullRequestInput!) { mergePullRequest(input: $input) { ${ANSWER} } }
`;

const ENABLE_MUTATION = /* GraphQL */ `
  mutation SvcEnableAutoMerge($input: EnablePullRequestAutoMergeInput!) { enablePullRequestAutoMerge(input: $input) { ${ANSWER} } }
`;

interface TargetAnswer { readonly repository: { readonly autoMergeAllowed: boolean; readonly pullRequest: { readonly id: string } | null } | null }
type RawAnswer = { readonly pullRequest: { readonly state: MergeAnswer['state']; readonly mergeCommit: { readonly oid: string } | null; readonly autoMergeRequest: unknown } | null } | null;

export const readMergeTarget = async (config: CodeHostConfig, owner: string, name: string, number: number): Promise<Either<PullRequestRefusal, MergeTarget>> => {
  const subject = `pull request ${owner}/${name}#${number}`;
  const answer = await attempt(subject, () => clientFor(config).request<TargetAnswer>(TARGET_QUERY, { owner, name, n: number }));
  if (answer._tag === 'Left') return answer;
  const repo = answer.right.repository;
  return repo?.pullRequest ? right({ pullRequestId: repo.pullRequest.id, autoMergeAllowed: repo.autoMergeAllowed }) : left(notHeld(subject));
};

const mapAnswer = (raw: RawAnswer, subject: string): Either<PullRequestRefusal, MergeAnswer> => {
  const pr = raw?.pullRequest;
  if (!pr) return left(refuse('HostFailed', `the code host answered nothing for ${subject}`));
  return right({ state: pr.state, mergeCommit: pr.mergeCommit?.oid ?? null, autoMerge: pr.autoMergeRequest !== null && pr.autoMergeRequest !== undefined });
};

/** mergePullRequest, or enablePullRequestAutoMerge when `viaHost`, with the head the decision used */
export const mergeOnHost = async (
  config: CodeHostConfig,
  input: { readonly pullRequestId: string; readonly method: MergeMethod; readonly headCommit: string; readonly viaHost: boolean; readonly subject: string },
): Promise<Either<PullRequestRefusal, MergeAnswer>> => {
  const variables = { input: { pullRequestId: input.pullRequestId, mergeMethod: input.method.toUpperCase(), expectedHeadOid: input.headCommit } };
  const field = input.viaHost ? 'enablePullRequestAutoMerge' : 'mergePullRequest';
  const answer = await attempt(input.subject, () =>
    clientFor(config).request<Record<string, RawAnswer>>(input.viaHost ? ENABLE_MUTATION : MERGE_MUTATION, variables));
  return answer._tag === 'Left' ? answer : mapAnswer(answer.right[field] ?? null, input.subject);
};
