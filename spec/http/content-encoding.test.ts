import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { gzipSync } from 'node:zlib';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { INIT, MCP_HEADERS, rawRequest } from '../mcp/helpers/raw-http.js';

// Issue 18, defect 4: every route that reads a body reads it through one reader, so a
// Content-Encoding it cannot undo (`br, x-foo` on a plain body) is a 415 with a detail everywhere,
// the tool endpoint included, and an encoding it can undo (gzip) is read.

const test = anyTest as TestFn<{ s: McpServer; run: string }>;

test.before(async (t) => {
  const s = await mcpServer();
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'kept', workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  t.context = { s, run: r.body.runId };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const RUN = '{run}';
const PROJECT = '{project}';
const WORKFLOW = 'digraph w { start [kind=start]\n done [kind=exit]\n start -> done }';

const ROWS: readonly (readonly [string, string, unknown])[] = [
  ['POST', '/api/runs', { project: PROJECT, goal: 'g', start: false }],
  ['POST', `/api/runs/${RUN}/goal`, { goal: 'g' }],
  ['POST', `/api/runs/${RUN}/control`, { position: 'v1', action: 'Abort' }],
  ['POST', `/api/runs/${RUN}/messages`, { text: 'hi', delivery: 'Hold' }],
  ['POST', `/api/runs/${RUN}/answers`, { question: 'q1', answer: 'a' }],
  ['POST', `/api/runs/${RUN}/archive`, { state: 'Archived' }],
  ['POST', `/api/runs/${RUN}/resolve`, {}],
  ['POST', `/api/runs/${RUN}/secure`, {}],
  ['POST', `/api/runs/${RUN}/pull-request`, {}],
  ['POST', `/api/runs/${RUN}/merge`, { method: 'squash' }],
  ['POST', `/api/runs/${RUN}/update-from-base`, { mode: 'merge' }],
  ['PUT', '/api/settings', { _tag: 'WatchdogTimeout', seconds: 601 }],
  ['POST', '/api/projects', { name: 'p2', folders: [] }],
  ['PUT', '/api/workflows/extra', { source: WORKFLOW }],
  ['POST', '/api/workflows/extra/validation', { source: WORKFLOW }],
  ['PUT', '/api/personas/extra', { prompt: 'p' }],
  ['POST', '/api/skills/install', { skill: 'svc-mcp', harness: 'claude' }],
  ['POST', '/api/triggers', { name: 'r', project: PROJECT, workflow: 'linear', source: { _tag: 'Webhook' }, goal: 'g' }],
  ['POST', '/api/supervisors', { project: null }],
];

const path = (p: string, s: McpServer, run: string) => p.replace(RUN, run).replace(PROJECT, s.projectId);
const body = (v: unknown, s: McpServer) => JSON.stringify(v).replace(JSON.stringify(PROJECT), JSON.stringify(s.projectId));

ROWS.forEach(([method, p, b], i) => {
  test.serial(`${i + 1}. ${method} ${p}: a plain body declared as "br, x-foo" is 415`, async (t) => {
    const { s, run } = t.context;
    const r = await s.send(method, path(p, s, run), body(b, s), { 'content-encoding': 'br, x-foo' });
    t.is(r.status, 415, JSON.stringify(r.body).slice(0, 300));
    t.regex(String(r.body.detail), /content-encoding/i);
  });
});

test.serial('nothing a refused body carried was acted on', async (t) => {
  const { s, run } = t.context;
  t.is((await s.get(`/api/runs/${run}/detail`)).body.goal, 'kept');
  t.is((await s.get('/api/workflows/extra?project=' + s.projectId)).status, 404);
});

test.serial('the tool endpoint: 415 for "br, x-foo", in JSON-RPC words with the same detail', async (t) => {
  const { s } = t.context;
  const port = Number(new URL(s.url).port);
  const r = await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${s.token}`, 'content-encoding': 'br, x-foo' }, INIT);
  t.is(r.status, 415, r.body);
  const answer = JSON.parse(r.body);
  t.is(answer.error.code, -32600);
  t.regex(answer.detail, /content-encoding/i);
});

test.serial('a gzip body, which the reader can undo, is read: a workflow saved and a draft checked', async (t) => {
  const { s } = t.context;
  const port = Number(new URL(s.url).port);
  const zipped = (v: unknown) => gzipSync(JSON.stringify(v)).toString('latin1');
  const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
  const send = (method: string, p: string, v: unknown) =>
    new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port, method, path: p, headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(Buffer.from(zipped(v), 'latin1'));
      }, reject);
    });
  t.is(await send('POST', '/api/workflows/zipped/validation', { source: WORKFLOW }), 200);
  t.is(await send('PUT', '/api/workflows/zipped', { source: WORKFLOW }), 200);
});
