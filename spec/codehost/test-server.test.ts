import test from 'ava';
import { type GitHubFixture, fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { isolateHome } from './helpers.js';

isolateHome();

// The test server is the proof that the service's documents are valid GitHub GraphQL, so prove
// the server itself rejects what GitHub's schema rejects.

const fixture: GitHubFixture = { webHost: 'github.example', tokens: ['t'], repositories: [fixtureRepository('acme', 'widgets')] };

const post = (url: string, query: string, variables: object = {}) =>
  fetch(url, { method: 'POST', headers: { authorization: 'bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });

test('a field GitHub does not have fails the request with 400 and is recorded', async (t) => {
  const server = await startGitHubServer(fixture);
  t.teardown(() => server.close());
  const res = await post(server.graphqlUrl, 'query { repository(owner: "acme", name: "widgets") { pullRequest(number: 1) { bogusField } } }');
  t.is(res.status, 400);
  const body = (await res.json()) as { errors: { message: string }[] };
  t.regex(body.errors[0]?.message ?? '', /bogusField/);
  t.is(server.invalid.length, 1);
});

test('a fragment on a type outside the union is invalid (StatusCheckRollupContext is CheckRun | StatusContext)', async (t) => {
  const server = await startGitHubServer(fixture);
  t.teardown(() => server.close());
  const query = `query { repository(owner: "acme", name: "widgets") { pullRequest(number: 1) {
    statusCheckRollup { contexts(first: 1) { nodes { ... on Commit { oid } } } } } } }`;
  const res = await post(server.graphqlUrl, query);
  t.is(res.status, 400);
  t.true(server.invalid.length > 0);
});

test('a valid document is executed against the fixture, with GitHub-shaped NOT_FOUND errors', async (t) => {
  const server = await startGitHubServer(fixture);
  t.teardown(() => server.close());
  const res = await post(server.graphqlUrl, 'query($o: String!) { repository(owner: $o, name: "nope") { id } }', { o: 'acme' });
  t.is(res.status, 200);
  const body = (await res.json()) as { data: { repository: null }; errors: { type: string; path: string[] }[] };
  t.deepEqual(body.data, { repository: null });
  t.like(body.errors[0], { type: 'NOT_FOUND', path: ['repository'] });
  t.deepEqual(server.invalid, []);
});
