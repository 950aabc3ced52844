import { ClientError } from 'graphql-request';
import { type Refusal, invalid, notFound, unavailable } from '../../commands/refusal.js';

// Every way reading or opening a pull request can be refused, each with a text meant for the
// person or agent who asked. `toRefusal` fits them into the service's one refusal table.
export type PullRequestRefusal =
  /** the arguments name no pull request (project without number, neither run nor project, bad number) */
  | { readonly _tag: 'NamesNoPullRequest'; readonly detail: string }
  /** a run alone was given and it has delivered no pull request */
  | { readonly _tag: 'NoDeliveredPullRequest'; readonly detail: string }
  /** the folder has no origin, or its origin is not on the configured code host */
  | { readonly _tag: 'NotOnCodeHost'; readonly detail: string }
  /** the host does not hold it (GraphQL NOT_FOUND, or a null answer) */
  | { readonly _tag: 'NotFound'; readonly detail: string; readonly subject: string }
  /** the token is missing, wrong or may not read it (HTTP 401/403, GraphQL FORBIDDEN) */
  | { readonly _tag: 'NotPermitted'; readonly detail: string }
  /** anything else the host or the network said */
  | { readonly _tag: 'HostFailed'; readonly detail: string };

type Plain = Exclude<PullRequestRefusal['_tag'], 'NotFound'>;
export const refuse = (_tag: Plain, detail: string): PullRequestRefusal => ({ _tag, detail });
export const notHeld = (subject: string): PullRequestRefusal =>
  ({ _tag: 'NotFound', subject, detail: `the code host does not hold ${subject}, or the token cannot see it` });

export const toRefusal = (r: PullRequestRefusal): Refusal => {
  switch (r._tag) {
    case 'NotFound': return notFound('pull request', r.subject);
    case 'NotPermitted':
    case 'HostFailed': return unavailable(r.detail);
    case 'NamesNoPullRequest':
    case 'NoDeliveredPullRequest':
    case 'NotOnCodeHost': return invalid(r.detail);
  }
};

// GitHub puts the error kind in a top-level `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE...);
// other GraphQL servers use extensions.code. Read both.
const errorType = (e: unknown): string | undefined => {
  const o = e as { type?: unknown; extensions?: { code?: unknown; type?: unknown } } | null;
  const t = o?.type ?? o?.extensions?.type ?? o?.extensions?.code;
  return typeof t === 'string' ? t.toUpperCase() : undefined;
};

const messages = (errors: readonly unknown[]): string =>
  errors.map((e) => String((e as { message?: unknown } | null)?.message ?? 'error')).join('; ');

// The `message` of GitHub's plain JSON error body (not GraphQL), when there is one.
const hostMessage = (body: unknown): string => {
  try {
    const message = (JSON.parse(String(body)) as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message !== '' ? `: ${message.slice(0, 300)}` : '';
  } catch {
    return '';
  }
};

const TOKEN_HINT = 'set the code host token in Settings or GH_TOKEN';

/** What a failed call means, for `what` (e.g. "pull request acme/widgets#7"). */
export const refusalFromError = (error: unknown, what: string): PullRequestRefusal => {
  if (!(error instanceof ClientError)) {
    const text = error instanceof Error ? error.message : String(error);
    return refuse('HostFailed', `could not reach the code host for ${what}: ${text}`);
  }
  const { status, errors = [], body } = error.response;
  if (status === 401) return refuse('NotPermitted', `the code host did not accept the token (401) for ${what}: ${TOKEN_HINT}`);
  // 403 is also how GitHub says "rate limited" or "SSO required": keep its message
  if (status === 403) return refuse('NotPermitted', `the code host refused the token (403) for ${what}${hostMessage(body)}`);
  const types = errors.map(errorType);
  if (types.includes('FORBIDDEN')) return refuse('NotPermitted', `the token may not read ${what}: ${messages(errors)}`);
  if (types.includes('NOT_FOUND')) return notHeld(what);
  const said = errors.length > 0 ? messages(errors) : `HTTP ${status}`;
  return refuse('HostFailed', `the code host failed for ${what}: ${said}`);
};
