import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readToken } from '../../lib/auth/mcp-token.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { BODY_ROUTES, filled, PROJECT, RUN, type BodyRoute } from '../helpers/body-routes.js';

// Issue 18, defect 2: every request body refuses a field it does not take with a 400 naming it,
// instead of acting and dropping the field. Each body below is otherwise one the route takes.

const test = anyTest as TestFn<{ s: McpServer; client: Client; run: string }>;

test.before(async (t) => {
  const s = await mcpServer();
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'kept', workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  t.context = { s, client: await s.connect(), run: r.body.runId };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
});

const Z = { zzUnknown: 1 };

// [method, path, body]: each route's body with an unknown field, and a few nested ones
const ROWS: readonly BodyRoute[] = [
  ...BODY_ROUTES.map(([method, path, body]): BodyRoute => [method, path, { ...body, ...Z }]),
  ['PUT', '/api/settings', { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 3, ...Z } }],
  ['PUT', '/api/settings', { _tag: 'SupervisorPrices', prices: [{ harness: 'claude', model: 'm', inputPerMTok: 1, cachedInputPerMTok: 1, outputPerMTok: 1, ...Z }] }],
  ['POST', '/api/triggers', { name: 'r', project: PROJECT, workflow: 'linear', source: { _tag: 'Webhook', ...Z }, goal: 'g' }],
  ['POST', '/api/triggers', { name: 'r', project: PROJECT, workflow: 'linear', source: { _tag: 'Schedule', cron: '0 3 * * *', timeZone: 'UTC', ...Z }, goal: 'g' }],
];

const fill = (v: unknown, s: McpServer, run: string): unknown => filled(v, s.projectId, run);

ROWS.forEach(([method, path, body], i) => {
  test.serial(`${i + 1}. ${method} ${path} ${JSON.stringify(body).slice(0, 80)}: 400 naming the unknown field`, async (t) => {
    const { s, run } = t.context;
    const r = await s.send(method, path.replace(RUN, run).replace(PROJECT, s.projectId), JSON.stringify(fill(body, s, run)));
    t.is(r.status, 400, JSON.stringify(r.body));
    t.regex(String(r.body.detail), /unknown field.*zzUnknown/);
  });
});

test.serial('nothing the refused requests carried was acted on', async (t) => {
  const { s, run } = t.context;
  const d = (await s.get(`/api/runs/${run}/detail`)).body;
  t.is(d.goal, 'kept');
  t.is(d.standing, 'Created');
  t.false(d.archived);
  t.is((await s.get('/api/runs')).body.length, 1);
  t.is((await s.get('/api/projects')).body.length, 1);
  t.is(readToken(s.home), s.token, 'the MCP token was not regenerated');
  const settings = (await s.get('/api/settings')).body;
  t.not(settings.watchdogSeconds, 601);
});

test.serial('a setting change over MCP refuses the same unknown field, nested or not', async (t) => {
  const { s, client } = t.context;
  await s.setting({ _tag: 'McpToolGroup', group: 'settings', enabled: true });
  for (const change of [{ _tag: 'WatchdogTimeout', seconds: 601, ...Z }, { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 3, ...Z } }]) {
    const http = await s.send('PUT', '/api/settings', JSON.stringify(change));
    const mcp = await call(client, 'change_setting', { change });
    t.is(http.status, 400);
    t.true(mcp.isError);
    t.regex(textOf(mcp), /^invalid arguments for change_setting: change(\.cap)?: unknown field: zzUnknown$/);
    t.regex(String(http.body.detail), /unknown field: zzUnknown$/);
  }
});
