import anyTest, { type TestFn } from 'ava';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer, type GitHubTestServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { worktreeOf } from '../helpers/http-kit.js';
import { eventually } from '../helpers/env.js';
import { control, history, startRun, untilStanding } from '../helpers/steer.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';

// Shipping a run from the app over HTTP (and MCP's open_pull_request): the real server, real git
// with a local bare origin behind a GitHub-looking URL, and the GraphQL test server built from
// GitHub's schema. Serial: some tests change the code host settings of the shared server.

interface Ctx { s: McpServer; gh: GitHubTestServer; client: Client; bare: string; work: string }
const test = anyTest as TestFn<Ctx>;

test.before(async (t) => {
  const { bare, work } = githubOrigin();
  const headExists = (_r: unknown, head: string) => git(bare, 'for-each-ref', `refs/heads/${head}`) !== '';
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')], headExists });
  const s = await mcpServer({ repo: work });
  await s.setting({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await s.setting({ _tag: 'CodeHostToken', token: 'tok' });
  t.context = { s, gh, bare, work, client: await s.connect() };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
  await t.context.gh?.close();
});

/** a run that wrote `file` (left uncommitted, as agents leave it) and succeeded */
const finished = async (s: McpServer, goal: string): Promise<string> => {
  const runId = await startRun(s, { goal, workflow: 'two' });
  await untilStanding(s, runId, 'Succeeded');
  return runId;
};

const GOAL = 'Add the feature. Ping @octocat ![x](https://evil.example/x.png) ``` fence [write:feature.txt=done]';

test.serial('creates the pull request: uncommitted work committed, the branch pushed, the body drawn from the run and quoted, recorded at once', async (t) => {
  const { s, gh, bare } = t.context;
  const runId = await finished(s, GOAL);
  const wt = await worktreeOf(s, runId);
  const r = await s.post(`/api/runs/${runId}/pull-request`, {});
  t.is(r.status, 200, JSON.stringify(r.body));
  const ref = r.body.pullRequest;
  t.like(ref, { repository: 'acme/app', url: `https://${WEB}/acme/app/pull/${ref.number}` });
  t.is(git(wt, 'status', '--porcelain'), '', 'the work was committed');
  t.is(git(bare, 'rev-parse', `refs/heads/svc/${runId}`), git(wt, 'rev-parse', 'HEAD'), 'origin has the branch as the worktree has it');
  t.is(git(bare, 'show', `svc/${runId}:feature.txt`), 'done');
  const sent = gh.received.find((q) => (q.variables as any).input?.headRefName === `svc/${runId}`)!.variables as any;
  t.like(sent.input, { baseRefName: 'main', draft: false, title: r.body.run.title });
  const body: string = sent.input.body;
  t.true(body.includes(`${s.url}/runs/${runId}`), body);
  t.true(body.includes(`\`\`\`\`text\n${GOAL}\n\`\`\`\``), 'the goal is quoted in a fence its own ``` cannot close');
  t.regex(body, /- `work`: succeeded\n- `review`: succeeded/);
  t.true(body.includes('reported success'), 'the agent\'s last summary');
  t.deepEqual(gh.invalid, []);
  // the run shows it at once: detail, history, thread, and the panel's read of the code host
  t.deepEqual(r.body.run.pullRequest, ref);
  const opened = (await history(s, runId)).find((e) => e.type === 'PullRequestOpened');
  t.deepEqual(opened?.data, { pullRequest: ref, base: 'main', draft: false, by: { kind: 'person' } });
  const panel = await s.get(`/api/runs/${runId}/pull-request?number=${ref.number}`);
  t.like(panel.body.pullRequest, { number: ref.number, title: r.body.run.title, state: 'OPEN', draft: false });
  const thread = JSON.stringify((await s.get(`/api/runs/${runId}/thread`)).body);
  t.true(thread.includes(`opened pull request ${ref.url} into main`));
  // a second one for the same branch is refused by name, before anything is pushed
  const again = await s.post(`/api/runs/${runId}/pull-request`, { draft: true });
  t.is(again.status, 409);
  t.is(again.body.detail, `the run already has an open pull request for its branch svc/${runId}: ${ref.url}`);
});

test.serial('MCP open_pull_request: draft, base, title and body as given, by the agent', async (t) => {
  const { s, client, gh } = t.context;
  const runId = await finished(s, '[write:mcp.txt=x]');
  const res = await call(client, 'open_pull_request', { run: runId, draft: true, base: 'main', title: 'Ship it', body: 'Why: see the run.' });
  t.falsy(res.isError, textOf(res));
  const sent = gh.received.find((q) => (q.variables as any).input?.headRefName === `svc/${runId}`)!.variables as any;
  t.like(sent.input, { draft: true, baseRefName: 'main', title: 'Ship it', body: 'Why: see the run.' });
  const opened = (await history(s, runId)).find((e) => e.type === 'PullRequestOpened');
  t.like(opened?.data, { draft: true, by: { kind: 'agent' } });
});

test.serial('never forced: origin\'s branch moved by someone else is refused and left as it was', async (t) => {
  const { s, bare } = t.context;
  const runId = await finished(s, '[write:mine.txt=mine]');
  // someone pushed to the run's branch on origin: a commit the run's worktree lacks
  const other = join(t.context.work, '..', `other-${runId}`);
  git(join(t.context.work, '..'), 'clone', '-q', bare, other);
  git(other, 'switch', '-q', '-c', `svc/${runId}`);
  writeFileSync(join(other, 'theirs.txt'), 'theirs\n');
  git(other, 'add', '-A');
  git(other, '-c', 'user.name=o', '-c', 'user.email=o@o', 'commit', '-q', '-m', 'theirs');
  git(other, 'push', '-q', 'origin', `svc/${runId}`);
  const theirs = git(bare, 'rev-parse', `refs/heads/svc/${runId}`);
  const r = await s.post(`/api/runs/${runId}/pull-request`, {});
  t.is(r.status, 409);
  t.regex(r.body.detail, new RegExp(`^origin's svc/${runId} has commits this checkout lacks; not forced`));
  t.is(git(bare, 'rev-parse', `refs/heads/svc/${runId}`), theirs);
  t.false((await history(s, runId)).some((e) => e.type === 'PullRequestOpened'));
});

test.serial('refusals, each with its exact reason and nothing recorded', async (t) => {
  const { s, client } = t.context;
  const idle = await finished(s, '[report:success]');
  const work = await finished(s, '[write:r.txt=r]');
  rmSync(join(await worktreeOf(s, idle), '.turns.log')); // the scripted agent's own log: the idle run leaves nothing else
  const refused = async (runId: string, body: Record<string, unknown>, status: number, detail: RegExp) => {
    const r = await s.post(`/api/runs/${runId}/pull-request`, body);
    t.is(r.status, status, JSON.stringify(r.body));
    t.regex(String(r.body.detail), detail);
  };
  await refused(idle, {}, 409, new RegExp(`^nothing to push: svc/${idle} has no commits that origin's main lacks, and no uncommitted changes$`));
  await refused(work, { base: 'nope' }, 409, /^origin has no branch nope to open the pull request into$/);
  await refused('r-missing', {}, 404, /unknown run/);
  await refused(work, { base: '-x' }, 400, /^base: must be a branch name \(got "-x"\)$/);
  await refused(work, { title: 'a\nb' }, 400, /^title: must be a non-blank one-line string/);
  await refused(work, { draft: 'yes' }, 400, /^draft: must be true or false/);
  await refused(work, { head: 'x' }, 400, /^unknown field: head$/);
  const mcp = await call(client, 'open_pull_request', { run: work, base: '-x' });
  t.true(mcp.isError);
  t.is(textOf(mcp), 'invalid arguments for open_pull_request: base: must be a branch name (got "-x")');
  // no code host: the origin is not on the configured one
  await s.setting({ _tag: 'CodeHost', graphqlUrl: t.context.gh.graphqlUrl, webHost: 'elsewhere.example' });
  await refused(work, {}, 409, /^folder .+'s origin https:\/\/github\.example\/acme\/app\.git is not on the code host elsewhere\.example \(see Settings\): no pull request can be opened$/);
  await s.setting({ _tag: 'CodeHost', graphqlUrl: t.context.gh.graphqlUrl, webHost: WEB });
  // the host refuses: a token it does not accept
  await s.setting({ _tag: 'CodeHostToken', token: 'wrong' });
  await refused(work, {}, 409, new RegExp(`^pushed svc/${work}, but no pull request was opened: the code host did not accept the token \\(401\\)`));
  await s.setting({ _tag: 'CodeHostToken', token: 'tok' });
  for (const runId of [idle, work]) t.false((await history(s, runId)).some((e) => e.type === 'PullRequestOpened'));
});

// An origin URL with credentials in it is quoted without them: HTTP, open_pull_request and read_pull_request.
test.serial('a refusal that quotes the origin never echoes its password', async (t) => {
  const { s, client, work } = t.context;
  const runId = await finished(s, '[write:secret.txt=s]');
  const wt = await worktreeOf(s, runId);
  const secretUrl = 'http://user:s3cr3t-pw@elsewhere.example/o/r.git';
  const before = { wt: git(wt, 'remote', 'get-url', 'origin'), work: git(work, 'remote', 'get-url', 'origin') };
  git(wt, 'remote', 'set-url', 'origin', secretUrl);
  git(work, 'remote', 'set-url', 'origin', secretUrl);
  t.teardown(() => { git(wt, 'remote', 'set-url', 'origin', before.wt); git(work, 'remote', 'set-url', 'origin', before.work); });
  const answers: [string, string][] = [];
  const r = await s.post(`/api/runs/${runId}/pull-request`, {});
  t.is(r.status, 409);
  answers.push(['HTTP pull-request', String(r.body.detail)]);
  const read = await s.get(`/api/runs/${runId}/pull-request`);
  answers.push(['HTTP read', JSON.stringify(read.body)]);
  answers.push(['open_pull_request', textOf(await call(client, 'open_pull_request', { run: runId }))]);
  answers.push(['read_pull_request', textOf(await call(client, 'read_pull_request', { run: runId, number: 1 }))]);
  for (const [where, text] of answers) {
    t.false(text.includes('s3cr3t'), `${where} echoed the password: ${text}`);
    t.false(text.includes('user:'), `${where} echoed the user: ${text}`);
  }
  t.regex(answers[0]![1], /origin http:\/\/\*\*\*@elsewhere\.example\/o\/r\.git is not on the code host/);
  t.regex(answers[3]![1], /http:\/\/\*\*\*@elsewhere\.example/);
  t.false(JSON.stringify(await history(s, runId)).includes('s3cr3t'), 'no event holds it');
});

test.serial('merge locally over HTTP: refused with the dirty files, then squashed and recorded', async (t) => {
  const { s, work } = t.context;
  const runId = await finished(s, '[write:merged.txt=merged]');
  await s.post(`/api/runs/${runId}/secure`, {});
  writeFileSync(join(work, 'README.md'), 'edited by the person\n');
  const dirty = await s.post(`/api/runs/${runId}/merge`, { method: 'squash' });
  t.is(dirty.status, 409);
  t.regex(dirty.body.detail, /has uncommitted changes: README\.md; nothing was merged$/);
  git(work, 'checkout', '--', 'README.md');
  t.is((await s.post(`/api/runs/${runId}/merge`, { method: 'rebase' })).body.detail, 'method: must be one of fast-forward, merge, squash (got "rebase")');
  const r = await s.post(`/api/runs/${runId}/merge`, { method: 'squash' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(git(work, 'rev-parse', 'main'), r.body.merged[0].commit);
  t.true(existsSync(join(work, 'merged.txt')));
  const merged = (await history(s, runId)).find((e) => e.type === 'RunMerged');
  t.deepEqual(merged?.data, { folder: r.body.merged[0].folder, method: 'squash', base: 'main', commit: r.body.merged[0].commit, by: { kind: 'person' } });
});

// issue 32: Merge locally needed a separate Secure work first; Create pull request commits by itself
test.serial('merge locally commits the run\'s uncommitted work and merges it in one step', async (t) => {
  const { s, work } = t.context;
  const runId = await finished(s, '[write:onestep.txt=one step]');
  const wt = await worktreeOf(s, runId);
  t.not(git(wt, 'status', '--porcelain'), '', 'the agent left its work uncommitted');
  const r = await s.post(`/api/runs/${runId}/merge`, { method: 'squash' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(git(wt, 'status', '--porcelain'), '');
  t.is(git(work, 'rev-parse', 'main'), r.body.merged[0].commit);
  t.is(readFileSync(join(work, 'onestep.txt'), 'utf8'), 'one step');
  t.is((await s.get(`/api/runs/${runId}/detail`)).body.merged?.[0]?.commit, r.body.merged[0].commit, 'the detail says it is merged');
});

test.serial('update from base over HTTP: a conflict left to the person is aborted and recorded with its files', async (t) => {
  const { s, work } = t.context;
  const runId = await finished(s, '[write:clash.txt=the run]');
  await s.post(`/api/runs/${runId}/secure`, {});
  writeFileSync(join(work, 'clash.txt'), 'the person\n');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', 'clash');
  const wt = await worktreeOf(s, runId);
  const head = git(wt, 'rev-parse', 'HEAD');
  const r = await s.post(`/api/runs/${runId}/update-from-base`, { mode: 'rebase', onConflict: 'leave' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.folders.map((f: any) => f.outcome), [{ _tag: 'Conflicted', files: ['clash.txt'] }]);
  t.is(r.body.handedTo, null);
  t.is(git(wt, 'rev-parse', 'HEAD'), head);
  t.is(git(wt, 'status', '--porcelain'), '');
  t.like((await history(s, runId)).find((e) => e.type === 'BaseUpdateConflicted')?.data, { mode: 'rebase', files: ['clash.txt'] });
  t.is((await s.post(`/api/runs/${runId}/update-from-base`, { mode: 'squash' })).status, 400);
});

test.serial('update from base on a live run: refused while its agent works; once paused, the conflict goes to the run itself as a message', async (t) => {
  const { s, work } = t.context;
  const runId = await s.running('[write:live.txt=the run][silent]');
  const wt = await worktreeOf(s, runId);
  await eventually(() => existsSync(join(wt, 'live.txt')), (x) => x);
  const busy = await s.post(`/api/runs/${runId}/update-from-base`, { mode: 'merge', onConflict: 'agent' });
  t.is(busy.status, 409);
  t.is(busy.body.detail, 'an agent turn is working in the run\'s worktree now; pause the run or wait for the turn to end');
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  git(wt, 'add', '-A');
  git(wt, '-c', 'user.name=a', '-c', 'user.email=a@a', 'commit', '-q', '-m', 'the run');
  writeFileSync(join(work, 'live.txt'), 'the person\n');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', 'the person');
  const r = await s.post(`/api/runs/${runId}/update-from-base`, { mode: 'merge', onConflict: 'agent' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.handedTo, runId, 'a live run takes the conflict itself');
  const events = await history(s, runId);
  const sent = events.find((e) => e.type === 'MessageSent');
  t.regex(sent?.data.text, /^Resolve these conflicts: .*\n.*resolve the conflicts in: live\.txt\./s);
  t.true(events.some((e) => e.type === 'RunResumed' && e.seq > sent.seq), 'the paused run goes on with it');
  t.like(events.find((e) => e.type === 'BaseUpdateConflicted')?.data, { files: ['live.txt'], handedTo: runId });
});
