import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { TOOLS } from '../../lib/mcp/registry.js';
import { TOOL_GROUPS } from '../../domain/settings.js';
import { mcpServer, type McpServer } from './helpers/real.js';
import { MCP_HEADERS, rawRequest } from './helpers/raw-http.js';
import { EXAMPLES } from './helpers/examples.js';
import { nestedText, withNested, wrongType } from '../helpers/body-routes.js';
import { startRunTools } from '../fixtures/run-tools/server.js';

// Issue 29, part 4: arguments nested 20,000 levels deep, or of the wrong type, in any tool: the
// tool's argument error naming the argument, never an internal error, a crash or a stack overflow.
// The JSON-RPC message around them nested that deep is refused as an HTTP body is (400).

const test = anyTest as TestFn<{ s: McpServer; port: number }>;

test.before(async (t) => {
  const s = await mcpServer();
  for (const group of TOOL_GROUPS) await s.setting({ _tag: 'McpToolGroup', group, enabled: true });
  t.context = { s, port: Number(new URL(s.url).port) };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const DEEP = 20_000;
const callText = (name: string, args: string, id = 9): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`;

const toolError = async (port: number, token: string, body: string): Promise<string> => {
  const r = await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body);
  if (r.status !== 200) throw new Error(`${r.status} ${r.body}`);
  const answer = JSON.parse(r.body);
  if (answer.error || !answer.result?.isError) throw new Error(`not a tool error: ${r.body.slice(0, 300)}`);
  return answer.result.content[0].text as string;
};

/** the valid example with the most arguments: each of them gets a row */
const fullest = (name: string): Record<string, unknown> => [...EXAMPLES[name]!.valid].sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0]!;

for (const tool of TOOLS) {
  const args = fullest(tool.name);
  test(`${tool.name}: arguments nested ${DEEP} deep, and each argument nested so, are the tool's argument error naming it`, async (t) => {
    const { s, port } = t.context;
    t.is(await toolError(port, s.token, callText(tool.name, nestedText(DEEP))), `invalid arguments for ${tool.name}: the body nests deeper than 64 levels of arrays and objects`);
    for (const field of Object.keys(args)) {
      const text = await toolError(port, s.token, callText(tool.name, withNested(args, field, DEEP)));
      t.is(text, `invalid arguments for ${tool.name}: ${field} nests deeper than 64 levels of arrays and objects`);
    }
  });
  if (Object.keys(args).length === 0) continue;
  test(`${tool.name}: each argument of the wrong type is the tool's argument error naming it`, async (t) => {
    const { s, port } = t.context;
    for (const field of Object.keys(args)) {
      const text = await toolError(port, s.token, callText(tool.name, JSON.stringify({ ...args, [field]: wrongType(args[field]) })));
      t.regex(text, new RegExp(`^invalid arguments for ${tool.name}: ${field}`), field);
    }
  });
}

test('read_usage refuses a limit given as a string, as its schema (integer) says', async (t) => {
  const { s, port } = t.context;
  t.is(await toolError(port, s.token, callText('read_usage', '{"limit":"5"}')), 'invalid arguments for read_usage: limit: must be a whole number from 1 to 10000 (got "5")');
});

test('a JSON-RPC message nested too deep outside the arguments is a 400 with a detail, and the endpoint goes on', async (t) => {
  const { s, port } = t.context;
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${s.token}` };
  for (const body of [nestedText(DEEP), `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${nestedText(DEEP)}}}`]) {
    const r = await rawRequest(port, 'POST', '/mcp', headers, body);
    t.is(r.status, 400, r.body.slice(0, 300));
    const answer = JSON.parse(r.body);
    t.is(answer.error.code, -32600);
    t.regex(answer.detail, /nests deeper than 66 levels of arrays and objects$/);
  }
  const list = await rawRequest(port, 'POST', '/mcp', headers, '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}');
  t.is(JSON.parse(list.body).result.tools.length, TOOLS.length);
});

test("a run's own tool server answers arguments nested too deep with the tool's argument error", async (t) => {
  const rt = await startRunTools();
  t.teardown(() => rt.close());
  const url = new URL(rt.url('run-1'));
  for (const [name, args] of [['ask_question', { prompt: 'p', options: ['a'] }], ['report_outcome', { outcome: 'success', summary: 's' }]] as const) {
    for (const field of Object.keys(args)) {
      const r = await rawRequest(Number(url.port), 'POST', url.pathname, { ...MCP_HEADERS, authorization: `Bearer ${rt.token}` }, callText(name, withNested(args, field, DEEP)));
      t.is(r.status, 200, r.body.slice(0, 300));
      const answer = JSON.parse(r.body);
      t.true(answer.result.isError);
      t.is(answer.result.content[0].text, `invalid arguments for ${name}: ${field} nests deeper than 64 levels of arrays and objects`);
    }
  }
  t.deepEqual(rt.questions, []);
  t.deepEqual(rt.outcomes, []);
});
