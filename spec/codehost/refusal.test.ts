import test from 'ava';
import { ClientError } from 'graphql-request';
import { type PullRequestRefusal, notHeld, refuse, refusalFromError, toRefusal } from '../../lib/codehost/refusal.js';
import { refusalText } from '../../commands/refusal.js';

const clientError = (status: number, errors: object[] | undefined, body = '') =>
  new ClientError({ status, headers: new Headers(), body, ...(errors ? { errors: errors as never } : {}) }, { query: 'query { viewer { login } }' });

const WHAT = 'pull request acme/widgets#7';

const TABLE: [string, unknown, PullRequestRefusal['_tag'], RegExp][] = [
  ['HTTP 401', clientError(401, undefined, '{"message":"Bad credentials"}'), 'NotPermitted', /401.*GH_TOKEN/],
  ['HTTP 403 keeps the host\'s message', clientError(403, undefined, '{"message":"API rate limit exceeded"}'), 'NotPermitted', /403.*API rate limit exceeded/],
  ['HTTP 403 with a body that is not JSON', clientError(403, undefined, '<html>'), 'NotPermitted', /refused the token \(403\) for pull request acme\/widgets#7$/],
  ['GitHub\'s top-level type FORBIDDEN', clientError(200, [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }]), 'NotPermitted', /may not read .*not accessible/],
  ['extensions.code FORBIDDEN', clientError(200, [{ extensions: { code: 'forbidden' }, message: 'no' }]), 'NotPermitted', /may not read/],
  ['GitHub\'s top-level type NOT_FOUND', clientError(200, [{ type: 'NOT_FOUND', message: 'Could not resolve' }]), 'NotFound', /does not hold pull request acme\/widgets#7/],
  ['another GraphQL error', clientError(200, [{ type: 'UNPROCESSABLE', message: 'A pull request already exists' }]), 'HostFailed', /already exists/],
  ['HTTP 502 without errors', clientError(502, undefined), 'HostFailed', /HTTP 502/],
  ['a network failure', new TypeError('fetch failed'), 'HostFailed', /could not reach the code host .*fetch failed/],
];

for (const [title, error, tag, detail] of TABLE) {
  test(`refusalFromError: ${title}`, (t) => {
    const r = refusalFromError(error, WHAT);
    t.is(r._tag, tag);
    t.regex(r.detail, detail);
  });
}

test('toRefusal fits each refusal into the service table', (t) => {
  t.deepEqual(toRefusal(notHeld(WHAT)), { _tag: 'NotFound', what: 'pull request', id: WHAT });
  t.is(refusalText(toRefusal(notHeld(WHAT))), `unknown pull request: ${WHAT}`);
  t.deepEqual(toRefusal(refuse('NotPermitted', 'no')), { _tag: 'Unavailable', detail: 'no' });
  t.deepEqual(toRefusal(refuse('HostFailed', 'down')), { _tag: 'Unavailable', detail: 'down' });
  for (const tag of ['NamesNoPullRequest', 'NoDeliveredPullRequest', 'NotOnCodeHost'] as const) {
    t.deepEqual(toRefusal(refuse(tag, 'why')), { _tag: 'Invalid', detail: 'why' });
  }
});
