// The documents the CodeHost source polls with, and their answers. Like lib/codehost/queries.ts,
// each is validated against GitHub's published schema by the test server (spec/fixtures/github).
// Both ask for `rateLimit`, so the poller knows its budget from the answer as well as the headers.

export const LABELED_ISSUES_QUERY = /* GraphQL */ `
  query SvcLabeledIssues($owner: String!, $name: String!, $label: String!, $since: DateTime!) {
    rateLimit { remaining resetAt }
    repository(owner: $owner, name: $name) {
      issues(first: 50, labels: [$label], filterBy: { since: $since }, orderBy: { field: UPDATED_AT, direction: DESC }) {
        nodes {
          number title url body author { login }
          timelineItems(itemTypes: [LABELED_EVENT], last: 20) {
            nodes { __typename ... on LabeledEvent { id createdAt label { name } } }
          }
        }
      }
    }
  }
`;

export const PULL_REQUEST_COMMENTS_QUERY = /* GraphQL */ `
  query SvcPullRequestComments($owner: String!, $name: String!) {
    rateLimit { remaining resetAt }
    repository(owner: $owner, name: $name) {
      pullRequests(states: [OPEN], first: 20, orderBy: { field: UPDATED_AT, direction: DESC }) {
        nodes {
          number title url
          comments(last: 30) { nodes { id body createdAt url author { login } } }
        }
      }
    }
  }
`;

type Nodes<T> = { readonly nodes?: readonly (T | null)[] | null } | null;
type Login = { readonly login: string } | null;

export interface RateLimitAnswer { readonly rateLimit: { readonly remaining: number; readonly resetAt: string } | null }

export interface LabeledIssuesAnswer extends RateLimitAnswer {
  readonly repository: {
    readonly issues: Nodes<{
      readonly number: number; readonly title: string; readonly url: string; readonly body: string; readonly author: Login;
      readonly timelineItems: Nodes<{ readonly __typename: string; readonly id?: string; readonly createdAt?: string; readonly label?: { readonly name: string } | null }>;
    }>;
  } | null;
}

export interface PullRequestCommentsAnswer extends RateLimitAnswer {
  readonly repository: {
    readonly pullRequests: Nodes<{
      readonly number: number; readonly title: string; readonly url: string;
      readonly comments: Nodes<{ readonly id: string; readonly body: string; readonly createdAt: string; readonly url: string; readonly author: Login }>;
    }>;
  } | null;
}

export const nodesOf = <T>(c: Nodes<T> | undefined): T[] => (c?.nodes ?? []).filter((n): n is T => n !== null);
