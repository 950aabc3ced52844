import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { call, textOf } from '../mcp/helpers/call.js';

// Issue 18, defect 3: a refusal names what it refused, but quotes at most ~100 characters of any
// input, then "…". Each long input goes through HTTP and, where MCP takes the same thing, through
// the tool; both answers are short and say the same.

const test = anyTest as TestFn<{ s: McpServer; client: Client; run: string }>;

test.before(async (t) => {
  const s = await mcpServer();
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'kept', workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  await s.setting({ _tag: 'Supervisors', enabled: true });
  t.context = { s, client: await s.connect(), run: r.body.runId };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
});

const HUGE = 900_000;
const long = (c: string, n = 150) => c.repeat(n);
const PROJECT = '{project}';
const RUN = '{run}';

interface Row {
  readonly name: string;
  readonly http: readonly [method: string, path: string, body?: unknown];
  readonly status: number;
  /** the same input through the tool endpoint, where it takes it */
  readonly mcp?: readonly [tool: string, args: Record<string, unknown>];
}

const ROWS: readonly Row[] = [
  { name: 'a 900 KB project on start', http: ['POST', '/api/runs', { project: long('A', HUGE), goal: 'g' }], status: 400, mcp: ['start_run', { project: long('A', HUGE), goal: 'g' }] },
  { name: 'an unknown project', http: ['POST', '/api/runs', { project: long('A'), goal: 'g' }], status: 404, mcp: ['start_run', { project: long('A'), goal: 'g' }] },
  { name: 'an unknown workflow', http: ['POST', '/api/runs', { project: PROJECT, goal: 'g', workflow: long('w') }], status: 400, mcp: ['start_run', { project: PROJECT, goal: 'g', workflow: long('w') }] },
  { name: 'an undeclared input name', http: ['POST', '/api/runs', { project: PROJECT, goal: 'g', inputs: { [long('k', HUGE)]: 'v' } }], status: 400, mcp: ['start_run', { project: PROJECT, goal: 'g', inputs: { [long('k', HUGE)]: 'v' } }] },
  { name: 'an input name of the wrong type', http: ['POST', '/api/runs', { project: PROJECT, goal: 'g', inputs: { [long('k', HUGE)]: 1 } }], status: 400, mcp: ['start_run', { project: PROJECT, goal: 'g', inputs: { [long('k', HUGE)]: 1 } }] },
  { name: 'a 900 KB position', http: ['POST', `/api/runs/${RUN}/control`, { position: long('p', HUGE), action: 'Abort' }], status: 400, mcp: ['control_run', { run: RUN, position: long('p', HUGE), action: 'Abort' }] },
  { name: 'an unknown question', http: ['POST', `/api/runs/${RUN}/answers`, { question: long('q'), answer: 'a' }], status: 404, mcp: ['answer_question', { run: RUN, question: long('q'), answer: 'a' }] },
  { name: 'a 900 KB unknown field', http: ['POST', `/api/runs/${RUN}/goal`, { goal: 'g', [long('z', HUGE)]: 1 }], status: 400, mcp: ['revise_goal', { run: RUN, goal: 'g', [long('z', HUGE)]: 1 }] },
  { name: 'an unknown run', http: ['GET', `/api/runs/${long('r')}`], status: 404, mcp: ['get_run', { run: long('r') }] },
  { name: 'a 900 KB thread cursor', http: ['GET', `/api/runs/${RUN}/thread?before=${long('x', 4000)}`], status: 400, mcp: ['read_run_thread', { run: RUN, before: long('x', HUGE) }] },
  { name: 'a 900 KB project name', http: ['POST', '/api/projects', { name: long('n', HUGE), folders: [] }], status: 400 },
  { name: 'a 900 KB folder path', http: ['POST', '/api/projects', { name: 'p2', folders: [{ path: `/${long('a', HUGE)}` }] }], status: 400 },
  { name: 'a relative folder path', http: ['POST', `/api/projects/${PROJECT}/folders`, { path: long('a', HUGE) }], status: 400 },
  { name: 'a 900 KB folder name', http: ['POST', `/api/projects/${PROJECT}/folders`, { path: '/tmp', name: long('n', HUGE) }], status: 400 },
  { name: 'a 900 KB trigger project', http: ['POST', '/api/triggers', { name: 'r', project: long('A', HUGE), workflow: 'linear', source: { _tag: 'Webhook' }, goal: 'g' }], status: 400 },
  { name: 'a 900 KB supervisor project', http: ['POST', '/api/supervisors', { project: long('A', HUGE) }], status: 404 },
  { name: 'an unknown workflow project', http: ['GET', `/api/workflows/linear?project=${long('A', 4000)}`], status: 404 },
  { name: 'a route that does not exist', http: ['GET', `/api/${long('x', 4000)}`], status: 404 },
];

const fill = (v: unknown, s: McpServer, run: string): unknown => {
  if (v === PROJECT) return s.projectId;
  if (v === RUN) return run;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, s, run)]));
  return v;
};

const SHORT = 400;

for (const row of ROWS) {
  test.serial(`${row.name}: a short detail`, async (t) => {
    const { s, client, run } = t.context;
    const [method, path, body] = row.http;
    const r = await s.send(method, path.replace(RUN, run).replace(PROJECT, s.projectId), body === undefined ? undefined : JSON.stringify(fill(body, s, run)));
    t.is(r.status, row.status, JSON.stringify(r.body).slice(0, 300));
    const detail = String(r.body.detail);
    t.true(detail.length <= SHORT, `${detail.length} characters: ${detail.slice(0, 300)}`);
    t.notRegex(detail, /(.)\1{100}/, 'no more than 100 characters of the input');
    if (!row.mcp) return;
    const [tool, args] = row.mcp;
    const answer = await call(client, tool, fill(args, s, run) as Record<string, unknown>);
    t.true(answer.isError);
    const text = textOf(answer);
    t.true(text.length <= SHORT, `${text.length} characters: ${text.slice(0, 300)}`);
    t.notRegex(text, /(.)\1{100}/);
  });
}

test.serial('an unknown tool name is quoted short', async (t) => {
  const answer = await call(t.context.client, long('x', HUGE), {});
  t.true(answer.isError);
  t.true(textOf(answer).length <= SHORT, textOf(answer).slice(0, 300));
});
