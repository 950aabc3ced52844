import test from 'ava';
import { mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitOk } from '../../lib/git/git.js';
import { deliverPullRequest } from '../../lib/codehost/deliver.js';
import { githubClient } from '../../lib/codehost/github.js';
import { originUrl, parseRepository } from '../../lib/codehost/origin.js';
import { type FixtureRepository, fixtureRepository } from '../fixtures/github/fixture.js';
import { type GitHubTestServer, startGitHubServer } from '../fixtures/github/server.js';
import { isolateHome } from './helpers.js';

// A real bare repository plays origin. The checkout's origin URL looks like GitHub
// (https://github.example/acme/<name>.git) so parsing sees a code-host URL, while an insteadOf
// rule in the temp HOME's git config sends fetches and pushes to the bare repository.

const root = isolateHome();
mkdirSync(process.env.HOME!, { recursive: true });
const WEB = 'github.example';
const bares = new Map<string, string>();

const headExists = async (repo: FixtureRepository, head: string): Promise<boolean> => {
  const bare = bares.get(repo.name);
  return bare !== undefined && (await git(bare, ['rev-parse', '--verify', '--quiet', `refs/heads/${head}`])).code === 0;
};

let server: GitHubTestServer;
test.before(async () => {
  await gitOk(root, ['config', '--global', 'user.name', 'Test']);
  await gitOk(root, ['config', '--global', 'user.email', 'test@example.com']);
  await gitOk(root, ['config', '--global', 'init.defaultBranch', 'main']);
  const repositories = ['one', 'two', 'three', 'four', 'five'].map((n) => fixtureRepository('acme', n));
  server = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories, headExists });
});
test.after.always(async () => {
  await server?.close();
});

const commit = async (dir: string, file: string, text: string): Promise<string> => {
  writeFileSync(join(dir, file), text);
  await gitOk(dir, ['add', file]);
  await gitOk(dir, ['commit', '-q', '-m', `change ${file}`]);
  return (await gitOk(dir, ['rev-parse', 'HEAD'])).trim();
};

// origin (bare) with main, and a checkout on the run's branch one commit ahead
const setUp = async (name: string) => {
  const bare = join(root, `${name}.git`);
  const work = join(root, name);
  const url = `https://${WEB}/acme/${name}.git`;
  await gitOk(root, ['init', '-q', '--bare', bare]);
  bares.set(name, bare);
  await gitOk(root, ['config', '--global', `url.${bare}.insteadOf`, url]);
  await gitOk(root, ['init', '-q', work]);
  await gitOk(work, ['remote', 'add', 'origin', url]);
  await commit(work, 'README.md', 'hello\n');
  await gitOk(work, ['push', '-q', 'origin', 'main']);
  await gitOk(work, ['switch', '-q', '-c', 'svc/run-1']);
  const head = await commit(work, 'work.txt', 'the agent\'s work\n');
  return { bare, work, head };
};

const client = (token = 'tok') => githubClient({ graphqlUrl: server.graphqlUrl, webHost: WEB, token });

const input = async (work: string, token = 'tok') => {
  const repo = parseRepository((await originUrl(work))!, WEB);
  if (!repo) throw new Error('origin did not parse as the code host');
  return { checkoutPath: work, branch: 'svc/run-1', base: 'main', ...repo, title: 'Run 1', body: 'Delivered by svc', client: client(token) };
};

test.serial('pushes the branch to origin (hooks skipped) and opens the pull request', async (t) => {
  const { bare, work, head } = await setUp('one');
  // a pre-push hook that would block any push: delivering must not run it
  writeFileSync(join(work, '.git', 'hooks', 'pre-push'), '#!/bin/sh\necho blocked >&2\nexit 1\n');
  chmodSync(join(work, '.git', 'hooks', 'pre-push'), 0o755);
  const r = await deliverPullRequest(await input(work));
  t.deepEqual(r, { _tag: 'Right', right: { repository: 'acme/one', number: 1, url: `https://${WEB}/acme/one/pull/1` } });
  t.is((await gitOk(bare, ['rev-parse', 'refs/heads/svc/run-1'])).trim(), head);
  const mutation = server.received.at(-1);
  t.like(mutation?.variables, { input: { headRefName: 'svc/run-1', baseRefName: 'main', title: 'Run 1', body: 'Delivered by svc', draft: false } });
  t.deepEqual(server.invalid, []);
});

test.serial('never forces: origin\'s branch with commits the checkout lacks is left as it was', async (t) => {
  const { bare, work } = await setUp('two');
  // someone else pushed to the run's branch on origin
  const other = join(root, 'two-other');
  await gitOk(root, ['clone', '-q', `https://${WEB}/acme/two.git`, other]);
  await gitOk(other, ['switch', '-q', '-c', 'svc/run-1']);
  const theirs = await commit(other, 'theirs.txt', 'theirs\n');
  await gitOk(other, ['push', '-q', 'origin', 'svc/run-1']);
  const before = server.received.length;
  const r = await deliverPullRequest(await input(work));
  t.like(r, { _tag: 'Left', left: { _tag: 'PushRejected' } });
  if (r._tag === 'Left') t.regex(r.left.detail, /has commits this checkout lacks; not forced/);
  t.is((await gitOk(bare, ['rev-parse', 'refs/heads/svc/run-1'])).trim(), theirs);
  t.is(server.received.length, before, 'no pull request is asked for after a failed push');
});

test.serial('a branch the checkout does not have is refused before any push', async (t) => {
  const { bare, work } = await setUp('three');
  const r = await deliverPullRequest({ ...(await input(work)), branch: 'svc/nothing' });
  t.like(r, { _tag: 'Left', left: { _tag: 'BranchMissing' } });
  t.is((await git(bare, ['rev-parse', '--verify', '--quiet', 'refs/heads/svc/nothing'])).code, 1);
});

test.serial('an unreachable origin is PushFailed with git\'s words', async (t) => {
  const { work } = await setUp('four');
  await gitOk(work, ['remote', 'set-url', 'origin', join(root, 'missing.git')]);
  const r = await deliverPullRequest({ ...(await input(join(root, 'one'))), checkoutPath: work });
  t.like(r, { _tag: 'Left', left: { _tag: 'PushFailed' } });
  if (r._tag === 'Left') t.regex(r.left.detail, /missing\.git|does not appear to be a git repository/);
});

test.serial('pushed but the host refuses the pull request: the refusal says the branch is on origin', async (t) => {
  const { bare, work, head } = await setUp('five');
  const r = await deliverPullRequest(await input(work, 'wrong-token'));
  t.like(r, { _tag: 'Left', left: { _tag: 'PullRequestRefused', refusal: { _tag: 'NotPermitted' } } });
  if (r._tag === 'Left') t.regex(r.left.detail, /^pushed svc\/run-1, but no pull request was opened: .*401/);
  t.is((await gitOk(bare, ['rev-parse', 'refs/heads/svc/run-1'])).trim(), head);
});
