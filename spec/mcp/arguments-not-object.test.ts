import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { TOOLS } from '../../lib/mcp/registry.js';
import { TOOL_GROUPS } from '../../domain/settings.js';
import { mcpServer, type McpServer } from './helpers/real.js';
import { MCP_HEADERS, rawRequest, rpc } from './helpers/raw-http.js';
import { startRunTools } from '../fixtures/run-tools/server.js';

// Issue 18, defect 5: a tools/call whose `arguments` is not an object (null, [1], "x") got
// JSON-RPC -32603 Internal error on every tool. It is the tool's own argument error now, naming
// the problem, like an HTTP body that is not an object ("the body must be a JSON object").

const test = anyTest as TestFn<{ s: McpServer; port: number }>;

test.before(async (t) => {
  const s = await mcpServer();
  for (const group of TOOL_GROUPS) await s.setting({ _tag: 'McpToolGroup', group, enabled: true });
  t.context = { s, port: Number(new URL(s.url).port) };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const CASES: readonly (readonly [unknown, string])[] = [[null, 'null'], [[1], 'an array'], ['x', 'a string'], [5, 'a number'], [true, 'a boolean']];

for (const tool of TOOLS) {
  test(`${tool.name}: arguments that are not an object are the tool's argument error`, async (t) => {
    const { s, port } = t.context;
    for (const [args, kind] of CASES) {
      const r = await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${s.token}` }, rpc('tools/call', { name: tool.name, arguments: args }, 7));
      t.is(r.status, 200, r.body);
      const answer = JSON.parse(r.body);
      t.is(answer.id, 7);
      t.is(answer.error, undefined, JSON.stringify(answer.error));
      t.true(answer.result.isError);
      t.is(answer.result.content[0].text, `invalid arguments for ${tool.name}: arguments must be a JSON object (got ${kind})`);
    }
  });
}

// Issue 33: a NUL byte reaches spawn, git, paths and headers, which throw on it: every tool refuses
// it wherever it sits in the arguments, before its own decoder.
for (const tool of TOOLS) {
  test(`${tool.name}: a NUL byte anywhere in the arguments is the tool's argument error`, async (t) => {
    const { s, port } = t.context;
    const r = await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${s.token}` }, rpc('tools/call', { name: tool.name, arguments: { deep: [{ text: 'x\u0000y' }] } }, 8));
    const answer = JSON.parse(r.body);
    t.is(answer.error, undefined, JSON.stringify(answer.error));
    t.true(answer.result.isError);
    t.is(answer.result.content[0].text, `invalid arguments for ${tool.name}: deep.0.text holds a NUL byte (\\u0000), which no text svc takes may hold`);
  });
}

test('an unknown tool with such arguments says the tool is unknown', async (t) => {
  const { s, port } = t.context;
  const r = await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${s.token}` }, rpc('tools/call', { name: 'no_such_tool', arguments: null }));
  t.is(JSON.parse(r.body).result.content[0].text, 'unknown tool: no_such_tool');
});

test("a run's own tool server answers such arguments with the tool's argument error too", async (t) => {
  const rt = await startRunTools();
  t.teardown(() => rt.close());
  const url = new URL(rt.url('run-1'));
  for (const name of ['ask_question', 'report_outcome']) {
    const r = await rawRequest(Number(url.port), 'POST', url.pathname, { ...MCP_HEADERS, authorization: `Bearer ${rt.token}` }, rpc('tools/call', { name, arguments: null }));
    t.is(r.status, 200, r.body);
    const answer = JSON.parse(r.body);
    t.is(answer.error, undefined, JSON.stringify(answer.error));
    t.true(answer.result.isError);
    t.regex(answer.result.content[0].text, new RegExp(`^${name} needs \\{`));
  }
  t.deepEqual(rt.outcomes, []);
});
