// The GraphQL documents of the pull request loop (lib/engine/pr-loop.ts), and their answers.
// Like queries.ts, each is validated against GitHub's schema by the test server.

// One read per poll: the head, the required checks with what their runs reported (summary, text,
// annotations: the log excerpt the agent is given), the review threads with their ids (to reply
// on), mergeability, and the API budget left (the loop backs off when it runs low).
export const PULL_REQUEST_LOOP_QUERY = /* GraphQL */ `
  query SvcPullRequestLoop($owner: String!, $name: String!, $n: Int!) {
    rateLimit { remaining resetAt }
    repository(owner: $owner, name: $name) {
      pullRequest(number: $n) {
        number state headRefOid baseRefName mergeable
        statusCheckRollup {
          contexts(first: 100) {
            nodes {
              __typename
              ... on CheckRun {
                name status conclusion isRequired(pullRequestNumber: $n) summary text
                annotations(first: 20) { nodes { path title message location { start { line } } } }
              }
              ... on StatusContext { context state description isRequired(pullRequestNumber: $n) }
            }
          }
        }
        reviewThreads(first: 100) {
          nodes { id isResolved isOutdated path line comments(first: 50) { nodes { id body author { login } } } }
        }
      }
    }
  }
`;

export const REPLY_TO_THREAD_MUTATION = /* GraphQL */ `
  mutation SvcReplyToThread($input: AddPullRequestReviewThreadReplyInput!) {
    addPullRequestReviewThreadReply(input: $input) { comment { id } }
  }
`;

export const RESOLVE_THREAD_MUTATION = /* GraphQL */ `
  mutation SvcResolveThread($input: ResolveReviewThreadInput!) {
    resolveReviewThread(input: $input) { thread { id isResolved } }
  }
`;

type Nodes<T> = { readonly nodes?: readonly (T | null)[] | null } | null | undefined;

export interface RawAnnotation {
  readonly path: string;
  readonly title: string | null;
  readonly message: string;
  readonly location: { readonly start: { readonly line: number } };
}

export type RawLoopContext =
  | {
      readonly __typename: 'CheckRun'; readonly name: string; readonly status: string; readonly conclusion: string | null; readonly isRequired: boolean;
      readonly summary: string | null; readonly text: string | null; readonly annotations: Nodes<RawAnnotation>;
    }
  | { readonly __typename: 'StatusContext'; readonly context: string; readonly state: string; readonly description: string | null; readonly isRequired: boolean };

export interface RawLoopThread {
  readonly id: string;
  readonly isResolved: boolean;
  readonly isOutdated: boolean;
  readonly path: string;
  readonly line: number | null;
  readonly comments: Nodes<{ readonly id: string; readonly body: string; readonly author: { readonly login: string } | null }>;
}

export interface PullRequestLoopAnswer {
  readonly rateLimit: { readonly remaining: number; readonly resetAt: string } | null;
  readonly repository: {
    readonly pullRequest: {
      readonly number: number;
      readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
      readonly headRefOid: string;
      readonly baseRefName: string;
      readonly mergeable: string;
      readonly statusCheckRollup: { readonly contexts: Nodes<RawLoopContext> } | null;
      readonly reviewThreads: Nodes<RawLoopThread>;
    } | null;
  } | null;
}
