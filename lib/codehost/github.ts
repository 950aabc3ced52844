import { GraphQLClient } from 'graphql-request';
import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type CodeHostConfig, resolveToken } from './config.js';
import { pullRequestView } from './pull-request-view.js';
import { type PullRequestView } from '../../domain/pull-request.js';
import {
  CREATE_PULL_REQUEST_MUTATION,
  type CreatePullRequestAnswer,
  PULL_REQUEST_QUERY,
  type PullRequestAnswer,
  REPOSITORY_ID_QUERY,
  type RepositoryIdAnswer,
} from './queries.js';
import { type PullRequestRefusal, notHeld, refusalFromError, refuse } from './refusal.js';

// The code host client: GitHub's GraphQL API (github.com or an Enterprise host) over
// graphql-request. Every answer is an Either, never a throw, so callers map refusals uniformly.

export interface CreatePullRequestInput {
  readonly owner: string;
  readonly name: string;
  readonly base: string;
  readonly head: string;
  readonly title: string;
  readonly body: string;
  readonly draft: boolean;
}

export interface CreatedPullRequest {
  readonly number: number;
  readonly url: string;
  readonly title: string;
}

export interface CodeHostClient {
  createPullRequest(input: CreatePullRequestInput): Promise<Either<PullRequestRefusal, CreatedPullRequest>>;
  readPullRequest(owner: string, name: string, number: number): Promise<Either<PullRequestRefusal, PullRequestView>>;
}

const REQUEST_TIMEOUT_MS = 30_000;

// A new client per call: the token may come from GH_TOKEN or change in Settings at any time.
export const clientFor = (config: CodeHostConfig): GraphQLClient => {
  const token = resolveToken(config);
  return new GraphQLClient(config.graphqlUrl, {
    headers: token === null ? {} : { authorization: `bearer ${token}` },
    // a hung host must not hang a run or a tool call
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
};

export const attempt = async <T>(what: string, call: () => Promise<T>): Promise<Either<PullRequestRefusal, T>> => {
  try {
    return right(await call());
  } catch (error) {
    return left(refusalFromError(error, what));
  }
};

const readPullRequest = (config: CodeHostConfig) =>
  async (owner: string, name: string, number: number): Promise<Either<PullRequestRefusal, PullRequestView>> => {
    const subject = `pull request ${owner}/${name}#${number}`;
    const answer = await attempt(subject, () =>
      clientFor(config).request<PullRequestAnswer>(PULL_REQUEST_QUERY, { owner, name, n: number }));
    if (answer._tag === 'Left') return answer;
    const pr = answer.right.repository?.pullRequest;
    return pr ? right(pullRequestView(`${owner}/${name}`, pr)) : left(notHeld(subject));
  };

const repositoryId = async (config: CodeHostConfig, owner: string, name: string): Promise<Either<PullRequestRefusal, string>> => {
  const subject = `repository ${owner}/${name}`;
  const answer = await attempt(subject, () => clientFor(config).request<RepositoryIdAnswer>(REPOSITORY_ID_QUERY, { owner, name }));
  if (answer._tag === 'Left') return answer;
  const id = answer.right.repository?.id;
  return id ? right(id) : left(notHeld(subject));
};

// The mutation needs the repository's node id, so the repository is looked up first.
const createPullRequest = (config: CodeHostConfig) =>
  async (input: CreatePullRequestInput): Promise<Either<PullRequestRefusal, CreatedPullRequest>> => {
    const id = await repositoryId(config, input.owner, input.name);
    if (id._tag === 'Left') return id;
    const subject = `a pull request from ${input.head} into ${input.base} in ${input.owner}/${input.name}`;
    const variables = {
      input: { repositoryId: id.right, baseRefName: input.base, headRefName: input.head, title: input.title, body: input.body, draft: input.draft },
    };
    const answer = await attempt(subject, () => clientFor(config).request<CreatePullRequestAnswer>(CREATE_PULL_REQUEST_MUTATION, variables));
    if (answer._tag === 'Left') return answer;
    const pr = answer.right.createPullRequest?.pullRequest;
    return pr ? right({ number: pr.number, url: pr.url, title: pr.title }) : left(refuse('HostFailed', `the code host opened no pull request for ${subject}`));
  };

export const githubClient = (config: CodeHostConfig): CodeHostClient => ({
  createPullRequest: createPullRequest(config),
  readPullRequest: readPullRequest(config),
});
