import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOk } from '../../lib/git/git.js';
import { githubClient } from '../../lib/codehost/github.js';
import { type PullRequestAddressInput, addressPullRequest, readAddressedPullRequest } from '../../lib/codehost/read-pull-request.js';
import { fixturePullRequest, fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import type { PullRequestRefusal } from '../../lib/codehost/refusal.js';
import { isolateHome } from './helpers.js';

isolateHome();

const WEB = 'github.example';
// folders and their origins, standing in for git in the addressing table
const ORIGINS: Record<string, string | undefined> = {
  '/p/app': `git@${WEB}:acme/app.git`,
  '/p/elsewhere': 'https://gitlab.com/acme/app.git',
  '/p/no-origin': undefined,
  '/p/with-password': 'http://user:s3cr3t@gitlab.com/acme/app.git',
};
const deps = { webHost: WEB, originUrl: async (path: string) => ORIGINS[path] };

const ref = (repository: string, number: number) => ({ repository, number, url: `https://${WEB}/${repository}/pull/${number}` });
const run = (primaryFolderPath: string, ...pullRequests: ReturnType<typeof ref>[]) => ({ run: { primaryFolderPath, pullRequests } });

const ADDRESSED: [string, PullRequestAddressInput, { owner: string; name: string; number: number }][] = [
  ['a run alone reads its newest delivered pull request', run('/p/app', ref('acme/app', 4), ref('acme/lib', 9)), { owner: 'acme', name: 'lib', number: 9 }],
  ['a run with the number of one it delivered reads it in that pull request\'s repository', { ...run('/p/app', ref('acme/lib', 2), ref('acme/app', 4)), number: 2 }, { owner: 'acme', name: 'lib', number: 2 }],
  ['a run with another number reads it in the primary folder\'s repository', { ...run('/p/app', ref('acme/lib', 2)), number: 15 }, { owner: 'acme', name: 'app', number: 15 }],
  ['a run that delivered nothing, with a number, reads in the primary folder\'s repository', { ...run('/p/app'), number: 3 }, { owner: 'acme', name: 'app', number: 3 }],
  ['a project with a number reads it in the primary folder\'s repository', { project: { primaryFolderPath: '/p/app' }, number: 12 }, { owner: 'acme', name: 'app', number: 12 }],
  ['a run and a project: the run decides', { ...run('/p/app', ref('acme/lib', 5)), project: { primaryFolderPath: '/p/elsewhere' } }, { owner: 'acme', name: 'lib', number: 5 }],
];

for (const [title, input, expected] of ADDRESSED) {
  test(title, async (t) => {
    t.deepEqual(await addressPullRequest(input, deps), { _tag: 'Right', right: expected });
  });
}

const REFUSED: [string, PullRequestAddressInput, PullRequestRefusal['_tag'], RegExp][] = [
  ['neither run nor project', {}, 'NamesNoPullRequest', /name a run, or a project and a pull request number/],
  ['a number alone', { number: 3 }, 'NamesNoPullRequest', /name a run/],
  ['a project without a number', { project: { primaryFolderPath: '/p/app' } }, 'NamesNoPullRequest', /give its number/],
  ['number zero', { project: { primaryFolderPath: '/p/app' }, number: 0 }, 'NamesNoPullRequest', /not a pull request number/],
  ['a fractional number', { ...run('/p/app', ref('acme/app', 1)), number: 1.5 }, 'NamesNoPullRequest', /not a pull request number/],
  ['a run alone that delivered nothing', run('/p/app'), 'NoDeliveredPullRequest', /delivered no pull request/],
  ['a project whose origin is on another host', { project: { primaryFolderPath: '/p/elsewhere' }, number: 1 }, 'NotOnCodeHost', /gitlab\.com.*not on the code host github\.example/],
  ['an origin with a password, quoted without it', { project: { primaryFolderPath: '/p/with-password' }, number: 1 }, 'NotOnCodeHost', /^the origin of \/p\/with-password \(http:\/\/\*\*\*@gitlab\.com\/acme\/app\.git\) is not on the code host github\.example$/],
  ['a project folder without origin', { project: { primaryFolderPath: '/p/no-origin' }, number: 1 }, 'NotOnCodeHost', /no origin remote/],
  ['a run whose primary folder is elsewhere, number not delivered', { ...run('/p/elsewhere', ref('acme/app', 1)), number: 2 }, 'NotOnCodeHost', /not on the code host/],
];

for (const [title, input, tag, detail] of REFUSED) {
  test(`refused: ${title}`, async (t) => {
    const r = await addressPullRequest(input, deps);
    if (r._tag === 'Right') return t.fail(`addressed ${JSON.stringify(r.right)}`);
    t.is(r.left._tag, tag);
    t.regex(r.left.detail, detail);
  });
}

test('end to end: a project folder in git, read from the test server; the host\'s not-found is a refusal', async (t) => {
  const server = await startGitHubServer({
    webHost: WEB,
    tokens: ['tok'],
    repositories: [fixtureRepository('acme', 'app', [fixturePullRequest({ owner: 'acme', name: 'app' }, WEB, { number: 12, title: 'Twelve' })])],
  });
  t.teardown(() => server.close());
  const folder = mkdtempSync(join(tmpdir(), 'svc-project-'));
  await gitOk(folder, ['init', '-q']);
  await gitOk(folder, ['remote', 'add', 'origin', `https://${WEB}/acme/app.git`]);
  const client = githubClient({ graphqlUrl: server.graphqlUrl, webHost: WEB, token: 'tok' });
  const found = await readAddressedPullRequest({ project: { primaryFolderPath: folder }, number: 12 }, { webHost: WEB, client });
  t.like(found, { _tag: 'Right', right: { repository: 'acme/app', number: 12, title: 'Twelve' } });
  const missing = await readAddressedPullRequest({ project: { primaryFolderPath: folder }, number: 13 }, { webHost: WEB, client });
  t.like(missing, { _tag: 'Left', left: { _tag: 'NotFound', subject: 'pull request acme/app#13' } });
  const refused = await readAddressedPullRequest({ project: { primaryFolderPath: folder } }, { webHost: WEB, client });
  t.like(refused, { _tag: 'Left', left: { _tag: 'NamesNoPullRequest' } });
  t.deepEqual(server.invalid, []);
  t.is(server.received.length, 2, 'a refusal made before reading sends nothing to the host');
});
