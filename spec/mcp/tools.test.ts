import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../lib/mcp/registry.js';
import { TOOL_GROUPS } from '../../domain/settings.js';
import { fixturePullRequest, fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer, type GitHubTestServer } from '../fixtures/github/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';
import { mcpServer, type McpServer } from './helpers/real.js';
import { EXAMPLES } from './helpers/examples.js';
import { call, textOf } from './helpers/call.js';
import { SHIP, WEB, githubOrigin } from '../helpers/code-host-origin.js';

// The official SDK client against the real server: listing by group, every tool with good and bad
// arguments, and the server still answering after each bad call. The examples name run `r1`,
// project `p1`, question `q1` and cursor `c1`; each valid call gets a real one in the standing the
// tool needs, made through the real engine with the scripted harness.


interface Ctx { srv: McpServer; client: Client; gh: GitHubTestServer; shipped: string; reading: string; cursor: string }

const allGroups = async (srv: McpServer, enabled: boolean, except?: string) => {
  for (const group of TOOL_GROUPS) await srv.setting({ _tag: 'McpToolGroup', group, enabled: group === except ? !enabled : enabled });
};

const setup = async (): Promise<Ctx> => {
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app', [fixturePullRequest({ owner: 'acme', name: 'app' }, WEB, { number: 4 })])] });
  const srv = await mcpServer({ workflows: { ship: SHIP, watch: WATCH }, repo: githubOrigin().work });
  await srv.setting({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await srv.setting({ _tag: 'CodeHostToken', token: 'tok' });
  // check_pull_request_now reads at once; the loop's own poll must not race it
  await srv.setting({ _tag: 'PullRequestWatchInterval', seconds: 3600 });
  const shipped = await startRun(srv, { goal: '[write:feature.txt=done]', workflow: 'ship' });
  await untilStanding(srv, shipped, 'Succeeded');
  // a run read by the reading tools, with two thread rows so a page has a cursor
  const reading = await srv.running();
  await srv.post(`/api/runs/${reading}/messages`, { text: 'hello', delivery: 'Hold' });
  const cursor = (await srv.get(`/api/runs/${reading}/thread?pageSize=1`)).body.before as string;
  return { srv, client: await srv.connect(), gh, shipped, reading, cursor };
};
const shared = setup();
test.after.always(async () => {
  const { srv, client, gh } = await shared;
  await client.close();
  await srv.close();
  await gh.close();
});

/** a deliver step that keeps watching its pull request (check_pull_request_now needs one) */
const WATCH = SHIP.replace('ship [kind=deliver]', 'ship [kind=deliver, watch=true]');

/** a run whose work is committed on its branch and whose checkout's main has not moved since it began */
const mergeable = async (srv: McpServer, file: string): Promise<string> => {
  const runId = await startRun(srv, { goal: `[write:${file}=work][report:success]`, workflow: 'two' });
  await untilStanding(srv, runId, 'Succeeded');
  const secured = await srv.post(`/api/runs/${runId}/secure`, {});
  if (secured.status !== 200) throw new Error(`not secured: ${JSON.stringify(secured.body)}`);
  return runId;
};

let watching: Promise<string> | undefined;
const watchingRun = (srv: McpServer): Promise<string> => (watching ??= (async () => {
  const runId = await startRun(srv, { goal: '[write:watched.txt=w][report:success]', workflow: 'watch' });
  await eventually(() => detail(srv, runId), (d) => d.standing === 'Waiting' && d.pullRequestLoop !== undefined);
  return runId;
})());

const succeeded = async (srv: McpServer): Promise<string> => {
  const runId = await startRun(srv, { goal: '[report:success]', workflow: 'two' });
  // two turns and the run's end: a full run at load 16 took more than the default 20 s
  await untilStanding(srv, runId, 'Succeeded', 60_000);
  return runId;
};

const attempt = async (srv: McpServer): Promise<string> => {
  const r = await srv.post('/api/runs', { project: srv.projectId, goal: 'g', workflow: 'two', start: false, attempts: [{ harness: 'claude' }, { harness: 'codex' }] });
  if (r.status !== 200) throw new Error(`attempts not started: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.runId as string;
};

/** A valid example with the real run, project, question, cursor and position it needs. */
const realArgs = async (ctx: Ctx, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
  const { srv } = ctx;
  let run = ctx.reading;
  let question = '';
  if (['archive_run', 'resolve_run', 'wait_for_run'].includes(tool)) run = await srv.ended(); // ended: wait_for_run answers at once
  if (['control_run', 'revise_goal', 'secure_run_work', 'message_run', 'move_run'].includes(tool)) run = await srv.running();
  if (tool === 'read_pull_request') run = ctx.shipped;
  if (tool === 'submit_review') {
    // a review needs a diff: the agent writes the file its examples comment on, then keeps its turn
    run = await srv.running('[write:review.txt=line one][silent]');
    await eventually(() => srv.get(`/api/runs/${run}/diff`), (r) => JSON.stringify(r.body).includes('review.txt'));
  }
  if (tool === 'keep_attempt') run = await attempt(srv); // one of two attempts, neither started
  if (tool === 'follow_up_run') run = await succeeded(srv);
  if (tool === 'open_pull_request') { // a run with work on its branch and no pull request yet
    run = await startRun(srv, { goal: `[write:pr-${args['draft'] ? 'b' : 'a'}.txt=work][report:success]`, workflow: 'two' });
    await untilStanding(srv, run, 'Succeeded');
  } // ended, with its worktree, followed up by nothing yet
  if (tool === 'fork_run') {
    run = await succeeded(srv);
    const history = (await srv.get(`/api/runs/${run}/history?pageSize=200`)).body.events as { type: string; seq: number }[];
    args = { ...args, at: history.find((e) => e.type === 'StepSucceeded')!.seq };
  }
  if (tool === 'merge_run') run = await mergeable(srv, `merge-${String(args['method'])}.txt`);
  if (tool === 'update_run_from_base') run = await mergeable(srv, `update-${String(args['mode'])}.txt`); // ended and committed: no turn works in it
  if (tool === 'check_pull_request_now') run = await watchingRun(srv);
  if (tool === 'read_pull_request_draft') run = ctx.shipped;
  // a preview needs a command: a server that only waits (the port is never asked here)
  if (tool === 'start_preview') srv.service.setProjectPreview(srv.projectId, { argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], setup: null, portEnv: 'PORT' });
  if (tool === 'answer_question') ({ runId: run, questionId: question } = await srv.asking(typeof args['answer'] === 'string' ? 'Which?' : 'Which?|a|b'));
  const real = JSON.parse(JSON.stringify(args)
    .replaceAll('"r1"', JSON.stringify(run)).replaceAll('"p1"', JSON.stringify(srv.projectId))
    .replaceAll('"q1"', JSON.stringify(question)).replaceAll('"c1"', JSON.stringify(ctx.cursor)).replaceAll('"Demo"', '"demo"'));
  return tool === 'control_run' ? { ...real, position: await srv.position(run) } : real;
};

test('by default tools/list shows every tool but the archiving and settings groups', async (t) => {
  const srv = await mcpServer();
  t.teardown(() => srv.close());
  const client = await srv.connect();
  t.teardown(() => client.close());
  const names = (await client.listTools()).tools.map((x) => x.name);
  t.deepEqual(names, TOOLS.filter((x) => x.group !== 'archiving' && x.group !== 'settings').map((x) => x.name));
  t.is(names.length, 33);
});

test('each listed tool advertises the schema derived from its codec', async (t) => {
  const { client } = await shared;
  for (const listed of (await client.listTools()).tools) {
    t.deepEqual(listed.inputSchema, TOOLS.find((x) => x.name === listed.name)?.inputSchema as unknown, listed.name);
    t.true((listed.description ?? '').length > 20);
    t.is(listed.annotations?.readOnlyHint, TOOLS.find((x) => x.name === listed.name)?.group === 'reading' ? true : undefined, listed.name);
  }
});

for (const group of TOOL_GROUPS) {
  test.serial(`group ${group} off: its tools are not listed and a call says the group is off`, async (t) => {
    const { client, srv } = await shared;
    await allGroups(srv, true, group);
    t.teardown(() => allGroups(srv, true));
    const names = (await client.listTools()).tools.map((x) => x.name);
    const inGroup = TOOLS.filter((x) => x.group === group).map((x) => x.name);
    t.deepEqual(names, TOOLS.filter((x) => x.group !== group).map((x) => x.name));
    const before = srv.service.listRuns().length;
    for (const name of inGroup) {
      const res = await call(client, name, EXAMPLES[name]!.valid[0]);
      t.true(res.isError, name);
      t.is(textOf(res), `the ${group} tool group is off in Settings`);
    }
    t.is(srv.service.listRuns().length, before, 'a refused call started nothing');
  });
}

test.serial('every tool answers its valid examples', async (t) => {
  const ctx = await shared;
  await allGroups(ctx.srv, true);
  for (const tool of TOOLS) {
    for (const args of EXAMPLES[tool.name]!.valid) {
      const real = await realArgs(ctx, tool.name, args);
      const res = await call(ctx.client, tool.name, real);
      t.falsy(res.isError, `${tool.name} ${JSON.stringify(real)}: ${textOf(res)}`);
      t.deepEqual(res.structuredContent, JSON.parse(textOf(res)), tool.name);
    }
  }
  t.deepEqual(ctx.gh.invalid, [], 'every query the service sent is valid against GitHub\'s schema');
});

test.serial('every bad argument is a tool error with a clear text, and the server answers afterwards', async (t) => {
  const { client, srv } = await shared;
  await allGroups(srv, true);
  for (const tool of TOOLS) {
    for (const bad of EXAMPLES[tool.name]!.bad) {
      const res = await call(client, tool.name, bad.args);
      t.true(res.isError, `${tool.name} ${JSON.stringify(bad.args)}`);
      t.regex(textOf(res), bad.text, `${tool.name} ${JSON.stringify(bad.args)}`);
      if (bad.shape) t.true(textOf(res).startsWith(`invalid arguments for ${tool.name}: `));
    }
  }
  t.is((await client.listTools()).tools.length, TOOLS.length);
});

test('an unknown tool is a tool error', async (t) => {
  const { client } = await shared;
  const res = await call(client, 'drop_database', {});
  t.true(res.isError);
  t.is(textOf(res), 'unknown tool: drop_database');
});
