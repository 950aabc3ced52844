// The GraphQL documents the service sends to the code host, and the shapes of their answers.
// Every document here is validated against GitHub's published schema by the test server
// (spec/fixtures/github), so a field GitHub does not have fails the tests, not production.

// Connections are read as one page (100 checks and threads, 50 reviews, requests and comments
// per thread): enough for a pull request a run opened; more is not paged.
// Beyond the fields in the notes, Bot and Mannequin reviewers ask for their login too, so a
// requested bot (e.g. a review app) is named rather than blank.
export const PULL_REQUEST_QUERY = /* GraphQL */ `
  query SvcPullRequest($owner: String!, $name: String!, $n: Int!) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $n) {
        number title url state isDraft headRefOid mergeable mergeStateStatus reviewDecision isInMergeQueue
        autoMergeRequest { enabledAt mergeMethod }
        statusCheckRollup {
          contexts(first: 100) {
            nodes {
              __typename
              ... on CheckRun { name status conclusion isRequired(pullRequestNumber: $n) }
              ... on StatusContext { context state isRequired(pullRequestNumber: $n) }
            }
          }
        }
        latestReviews(first: 50) { nodes { state author { login } } }
        reviewRequests(first: 50) {
          nodes {
            requestedReviewer {
              __typename
              ... on User { login }
              ... on Team { slug name }
              ... on Bot { login }
              ... on Mannequin { login }
            }
          }
        }
        reviewThreads(first: 100) {
          nodes { isResolved isOutdated comments(first: 50) { nodes { author { login } path body url } } }
        }
      }
    }
  }
`;

export const REPOSITORY_ID_QUERY = /* GraphQL */ `
  query SvcRepositoryId($owner: String!, $name: String!) {
    repository(owner: $owner, name: $name) { id }
  }
`;

export const CREATE_PULL_REQUEST_MUTATION = /* GraphQL */ `
  mutation SvcCreatePullRequest($input: CreatePullRequestInput!) {
    createPullRequest(input: $input) { pullRequest { number url title } }
  }
`;

// GitHub's connections have nullable node lists of nullable nodes; the mapping tolerates both.
type Nodes<T> = { readonly nodes?: readonly (T | null)[] | null } | null;
type Login = { readonly login: string } | null;

export type RawContext =
  | { readonly __typename: 'CheckRun'; readonly name: string; readonly status: string; readonly conclusion: string | null; readonly isRequired: boolean }
  | { readonly __typename: 'StatusContext'; readonly context: string; readonly state: string; readonly isRequired: boolean };

export type RawReviewer =
  | { readonly __typename: 'Team'; readonly slug: string; readonly name: string }
  | { readonly __typename: 'User' | 'Bot' | 'Mannequin'; readonly login: string };

export interface RawPullRequest {
  readonly number: number;
  readonly title: string;
  readonly url: string;
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly isDraft: boolean;
  readonly headRefOid: string;
  readonly mergeable: string;
  readonly mergeStateStatus: string;
  readonly reviewDecision: string | null;
  readonly isInMergeQueue: boolean;
  readonly autoMergeRequest: { readonly enabledAt: string | null; readonly mergeMethod: string } | null;
  readonly statusCheckRollup: { readonly contexts: Nodes<RawContext> } | null;
  readonly latestReviews: Nodes<{ readonly state: string; readonly author: Login }>;
  readonly reviewRequests: Nodes<{ readonly requestedReviewer: RawReviewer | null }>;
  readonly reviewThreads: Nodes<{
    readonly isResolved: boolean;
    readonly isOutdated: boolean;
    readonly comments: Nodes<{ readonly author: Login; readonly path: string; readonly body: string; readonly url: string }>;
  }>;
}

export interface PullRequestAnswer {
  readonly repository: { readonly pullRequest: RawPullRequest | null } | null;
}

export interface RepositoryIdAnswer {
  readonly repository: { readonly id: string } | null;
}

export interface CreatePullRequestAnswer {
  readonly createPullRequest: { readonly pullRequest: { readonly number: number; readonly url: string; readonly title: string } | null } | null;
}
