import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer, type GitHubTestServer } from '../fixtures/github/server.js';
import { SHIP, WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { worktreeOf } from '../helpers/http-kit.js';
import { eventually } from '../helpers/env.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { recordUsage, tokens } from '../helpers/usage.js';
import { call, textOf, type CallAnswer } from './helpers/call.js';
import { mcpServer, type McpServer } from './helpers/real.js';

// Shipping and usage at the MCP door, each action done for real: the real server, the official
// SDK client on /mcp, real git with the person's checkout and a local bare origin behind a
// GitHub-looking URL, and the GraphQL test server built from GitHub's schema. Each tool answers as
// its HTTP route does (same decoder, same refusal words); bad arguments are tool errors and leave
// nothing behind. Serial: the tests share the person's checkout and move its main.

interface Ctx { s: McpServer; gh: GitHubTestServer; client: Client; work: string }
const test = anyTest as TestFn<Ctx>;

const WATCH = SHIP.replace('ship [kind=deliver]', 'ship [kind=deliver, watch=true]');

test.before(async (t) => {
  const { bare, work } = githubOrigin();
  const headExists = (_r: unknown, head: string) => git(bare, 'for-each-ref', `refs/heads/${head}`) !== '';
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')], headExists });
  const s = await mcpServer({ repo: work, workflows: { watch: WATCH } });
  await s.setting({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await s.setting({ _tag: 'CodeHostToken', token: 'tok' });
  // the watch reads its pull request when asked (check_pull_request_now), never by a clock
  await s.setting({ _tag: 'PullRequestWatchInterval', seconds: 3600 });
  t.context = { s, gh, work, client: await s.connect() };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
  await t.context.gh?.close();
});

/** a run that wrote `file`, succeeded, and had its work committed on its branch (Secure work) */
const committed = async (s: McpServer, file: string): Promise<string> => {
  const runId = await startRun(s, { goal: `[write:${file}=${file}][report:success]`, workflow: 'two' });
  await untilStanding(s, runId, 'Succeeded');
  const r = await s.post(`/api/runs/${runId}/secure`, {});
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return runId;
};

const commitOnMain = (work: string, file: string, text: string): string => {
  writeFileSync(join(work, file), text);
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', `the person: ${file}`);
  return git(work, 'rev-parse', 'HEAD');
};

const ok = (t: { falsy: (v: unknown, m?: string) => void }, res: CallAnswer): Record<string, any> => {
  t.falsy(res.isError, textOf(res));
  return res.structuredContent as Record<string, any>;
};

test.serial('merge_run squashes the run into the checkout\'s main, recorded as the agent\'s; a dirty checkout is refused in the HTTP route\'s words', async (t) => {
  const { s, client, work } = t.context;
  const runId = await committed(s, 'merged.txt');
  const before = git(work, 'rev-parse', 'main');
  const merged = ok(t, await call(client, 'merge_run', { run: runId, method: 'squash', reason: 'reviewed' }));
  const main = git(work, 'rev-parse', 'main');
  t.not(main, before, 'main moved');
  t.is(merged['merged'][0].commit, main);
  t.is(git(work, 'rev-parse', 'main^'), before, 'one squashed commit on top of the old main');
  t.is(readFileSync(join(work, 'merged.txt'), 'utf8'), 'merged.txt');
  t.is(git(work, 'status', '--porcelain'), '');
  t.like((await history(s, runId)).find((e) => e.type === 'RunMerged')?.data, { method: 'squash', base: 'main', commit: main, by: { kind: 'agent' } });

  const next = await committed(s, 'next.txt');
  writeFileSync(join(work, 'README.md'), 'edited by the person\n');
  t.teardown(() => git(work, 'checkout', '--', 'README.md'));
  const http = await s.post(`/api/runs/${next}/merge`, { method: 'fast-forward' });
  t.is(http.status, 409);
  const res = await call(client, 'merge_run', { run: next, method: 'fast-forward' });
  t.true(res.isError);
  t.is(textOf(res), http.body.detail);
  t.regex(textOf(res), /has uncommitted changes: README\.md; nothing was merged$/);
  t.is(git(work, 'rev-parse', 'main'), main, 'nothing merged');
  t.false((await history(s, next)).some((e) => e.type === 'RunMerged'));
});

test.serial('merge_run fast-forward: main becomes the run\'s branch tip', async (t) => {
  const { s, client, work } = t.context;
  const runId = await committed(s, 'ff.txt');
  const tip = git(await worktreeOf(s, runId), 'rev-parse', 'HEAD');
  const merged = ok(t, await call(client, 'merge_run', { run: runId, method: 'fast-forward' }));
  t.is(git(work, 'rev-parse', 'main'), tip);
  t.deepEqual(merged['merged'].map((m: any) => m.commit), [tip]);
});

test.serial('update_run_from_base brings the base\'s new commit into the run\'s branch; a run whose agent works is refused in the HTTP route\'s words', async (t) => {
  const { s, client, work } = t.context;
  const runId = await committed(s, 'behind.txt');
  const wt = await worktreeOf(s, runId);
  const theirs = commitOnMain(work, 'moved.txt', 'main moved on\n');
  t.throws(() => git(wt, 'merge-base', '--is-ancestor', theirs, 'HEAD'), undefined, 'not in the run\'s branch yet');
  const r = ok(t, await call(client, 'update_run_from_base', { run: runId, mode: 'merge', onConflict: 'leave' }));
  t.is(r['folders'][0].outcome._tag, 'Updated');
  t.is(r['handedTo'], null);
  git(wt, 'merge-base', '--is-ancestor', theirs, 'HEAD'); // throws unless the base's commit is in
  t.is(readFileSync(join(wt, 'moved.txt'), 'utf8'), 'main moved on\n');
  t.is(r['folders'][0].outcome.head, git(wt, 'rev-parse', 'HEAD'));
  t.like((await history(s, runId)).find((e) => e.type === 'BaseUpdated')?.data, { mode: 'merge', by: { kind: 'agent' } });

  const busy = await s.running('[write:busy.txt=x][silent]');
  const http = await s.post(`/api/runs/${busy}/update-from-base`, { mode: 'rebase' });
  t.is(http.status, 409);
  const res = await call(client, 'update_run_from_base', { run: busy, mode: 'rebase' });
  t.true(res.isError);
  t.is(textOf(res), http.body.detail);
  t.is(textOf(res), 'an agent turn is working in the run\'s worktree now; pause the run or wait for the turn to end');
});

test.serial('check_pull_request_now reads a watched pull request and answers its number; a run not watching one is refused in the HTTP route\'s words', async (t) => {
  const { s, client } = t.context;
  const runId = await startRun(s, { goal: '[write:watched.txt=w][report:success]', workflow: 'watch' });
  const watching = await eventually(() => detail(s, runId), (d) => d.standing === 'Waiting' && d.pullRequestLoop !== undefined, 60_000);
  const r = ok(t, await call(client, 'check_pull_request_now', { run: runId, reason: 'pushed a fix' }));
  t.deepEqual(r, { pullRequest: watching.pullRequestLoop.number, cycleRunning: false });

  const idle = await committed(s, 'idle.txt');
  const http = await s.post(`/api/runs/${idle}/pull-request/check`, {});
  t.is(http.status, 409);
  const res = await call(client, 'check_pull_request_now', { run: idle });
  t.true(res.isError);
  t.is(textOf(res), http.body.detail);
  t.regex(textOf(res), /^the run is not watching a pull request/);
  t.deepEqual(t.context.gh.invalid, []);
});

test.serial('read_pull_request_draft answers what GET /api/runs/{id}/pull-request-draft does', async (t) => {
  const { s, client } = t.context;
  const runId = await committed(s, 'draft.txt');
  const http = await s.get(`/api/runs/${runId}/pull-request-draft`);
  t.is(http.status, 200);
  const r = ok(t, await call(client, 'read_pull_request_draft', { run: runId }));
  t.deepEqual(r, http.body);
  t.like(r, { base: 'main' });
  t.true(String(r['body']).includes(`${s.url}/runs/${runId}`));
});

const D1 = '2026-03-01T12:00:00.000Z';
const D2 = '2026-03-02T12:00:00.000Z';

test.serial('read_usage: the same numbers as GET /api/usage for the same query, and the same refusals', async (t) => {
  const { s, client } = t.context;
  const a = await committed(s, 'cost-a.txt');
  const b = await committed(s, 'cost-b.txt');
  recordUsage(s, a, { at: D1, harness: 'claude', model: 'sonnet', tokens: tokens(1000, 200, 50), cost: { _tag: 'Reported', usd: 0.1 } });
  recordUsage(s, a, { at: D2, harness: 'codex', model: 'gpt-5', tokens: tokens(300, 100, 30), cost: { _tag: 'Priced', usd: 0.05 } });
  recordUsage(s, b, { at: D2, harness: 'opencode', tokens: null, cost: { _tag: 'Unknown', why: 'no price for the model' } });
  recordUsage(s, b, { at: D2, harness: 'claude', model: 'sonnet', tokens: tokens(10, 0, 1), cost: { _tag: 'Reported', usd: 1.25 } });
  const queries: Record<string, string | number>[] = [
    {}, { from: '2026-03-01', to: '2026-03-31' }, { from: '2026-03-01', to: '2026-03-31', groupBy: 'run' },
    { from: '2026-03-01', to: '2026-03-31', groupBy: 'harness', limit: 1 }, { from: '2026-03-01', to: '2026-03-02', split: 'harness' },
    { from: '2026-03-02', to: '2026-03-02', groupBy: 'model' }, { to: '2026-03-05', groupBy: 'project' },
  ];
  for (const q of queries) {
    const http = await s.get(`/api/usage?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
    t.is(http.status, 200, JSON.stringify(q));
    t.deepEqual(ok(t, await call(client, 'read_usage', q)), http.body, JSON.stringify(q));
  }
  const byRun = ok(t, await call(client, 'read_usage', { from: '2026-03-01', to: '2026-03-31', groupBy: 'run' }));
  t.deepEqual(byRun['rows'].map((r: any) => [r.key, r.costUsd, r.unknownTurns, r.turns]), [[b, 1.25, 1, 2], [a, 0.15, 0, 2]]);
  t.like(byRun['total'], { costUsd: 1.4, unknownTurns: 1, turns: 4 });

  // a shape refused by the codec: the tool error says what the 400 says; the service's own refusal is its words
  const refusals: [Record<string, string | number>, boolean][] = [
    [{ from: '2026-3-1' }, true], [{ to: '2026-02-30' }, true], [{ groupBy: 'week' }, true], [{ limit: '0' }, true],
    [{ from: '2026-03-05', to: '2026-03-01' }, false], [{ groupBy: 'run', split: 'harness' }, false],
  ];
  for (const [q, shape] of refusals) {
    const http = await s.get(`/api/usage?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
    t.is(http.status, 400, JSON.stringify(q));
    const res = await call(client, 'read_usage', q);
    t.true(res.isError, JSON.stringify(q));
    t.is(textOf(res), shape ? `invalid arguments for read_usage: ${http.body.detail}` : http.body.detail);
  }
});

// Each bad call names real runs in a state the tool would act on, so a lenient decoder would act.
test.serial('bad arguments: a tool error for each, never a crash, and nothing recorded or moved', async (t) => {
  const { s, client, work } = t.context;
  const run = await committed(s, 'untouched.txt');
  commitOnMain(work, 'ahead.txt', 'main is ahead\n'); // an update from base would change the run's branch
  const wt = await worktreeOf(s, run);
  const seen = async () => ({
    main: git(work, 'rev-parse', 'main'), head: git(wt, 'rev-parse', 'HEAD'), events: (await history(s, run)).length,
    runs: (await s.get('/api/runs')).body.length, status: git(work, 'status', '--porcelain'),
  });
  const before = await seen();
  const BAD: [string, unknown, RegExp][] = [
    ['merge_run', { run, method: 'rebase' }, /method: must be one of fast-forward, merge, squash/],
    ['merge_run', { run, method: 'squash', force: true }, /unknown argument: force/],
    ['merge_run', { run, method: ['squash'] }, /method: must be one of/],
    ['merge_run', { runId: run, method: 'squash' }, /unknown argument: runId/],
    ['merge_run', { run: 7, method: 'squash' }, /run: must be a non-blank string/],
    ['update_run_from_base', { run, mode: 'merge', onConflict: 'person' }, /onConflict: must be one of agent, leave/],
    ['update_run_from_base', { run, mode: 'merge', strategy: 'ours' }, /unknown argument: strategy/],
    ['update_run_from_base', { run }, /mode: is required/],
    ['update_run_from_base', { run, mode: 'merge', reason: 3 }, /reason: must be a string/],
    ['check_pull_request_now', { run, now: true }, /unknown argument: now/],
    ['check_pull_request_now', { run: '' }, /run: must be a non-blank string/],
    ['read_pull_request_draft', { run, base: 'dev' }, /unknown argument: base/],
    ['read_usage', { groupBy: 'week' }, /groupBy: must be one of day, project, harness, model, workflow, run/],
    ['read_usage', { limit: 'many' }, /limit: must be a whole number from 1 to 10000/],
    ['read_usage', { limit: 10_001 }, /limit: must be a whole number from 1 to 10000/],
    ['read_usage', { from: '2026-03-01T00:00:00Z' }, /from: must be a day written YYYY-MM-DD/],
    ['read_usage', { project: 'demo' }, /unknown argument: project/],
  ];
  for (const [tool, args, text] of BAD) {
    const res = await call(client, tool, args);
    t.true(res.isError, `${tool} ${JSON.stringify(args)}`);
    t.regex(textOf(res), text, `${tool} ${JSON.stringify(args)}`);
    t.true(textOf(res).startsWith(`invalid arguments for ${tool}: `), textOf(res));
  }
  t.deepEqual(await seen(), before, 'no merge, no update, no event, no run');
  t.true(existsSync(join(wt, 'untouched.txt')));
  t.is((await client.listTools()).tools.length > 0, true, 'the server answers afterwards');
});
