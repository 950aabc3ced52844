import test from 'ava';
import { statSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { regenerateToken, tokenPath } from '../../lib/auth/mcp-token.js';
import { mcpServer } from './helpers/real.js';
import { INIT, MCP_HEADERS, rawRequest, rpc } from './helpers/raw-http.js';
import { call, json, textOf } from './helpers/call.js';

// The tool endpoint's auth matrix on the real server, over plain HTTP (status codes) and the SDK client.

const portOf = (url: string) => Number(new URL(url).port);
const boot = async () => {
  const srv = await mcpServer();
  return { srv, port: portOf(srv.url) };
};

const post = (port: number, headers: Record<string, string>, body = INIT) => rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, ...headers }, body);

test('the token file is created with the endpoint, owner-only', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  t.is(statSync(tokenPath(srv.home)).mode & 0o777, 0o600);
});

test('no token, a wrong token, another scheme: 401 with a detail', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  for (const authorization of [undefined, 'Bearer nope', `Basic ${srv.token}`, `Bearer ${srv.token}x`]) {
    const res = await post(port, authorization ? { authorization } : {});
    t.is(res.status, 401, String(authorization));
    t.regex(JSON.parse(res.body).detail, /^missing or invalid token: .*`svc mcp token`/);
    t.regex(String(res.headers['www-authenticate']), /^Bearer error="invalid_token", error_description="[^"]*svc mcp token[^"]*"$/);
  }
  const ok = await post(port, { authorization: `Bearer ${srv.token}` });
  t.is(ok.status, 200);
  t.is(JSON.parse(ok.body).result.serverInfo.name, 'svc');
});

test('a regenerated token works at once and the old one is refused', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  const old = srv.token;
  t.is((await post(port, { authorization: `Bearer ${old}` })).status, 200);
  const fresh = regenerateToken(srv.home);
  t.is((await post(port, { authorization: `Bearer ${old}` })).status, 401);
  t.is((await post(port, { authorization: `Bearer ${fresh}` })).status, 200);
});

test('the SDK client cannot connect with a wrong token', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const client = new Client({ name: 'intruder', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: 'Bearer wrong' } } });
  await t.throwsAsync(client.connect(transport));
});

test('a foreign Host gets 403 on /mcp and /api alike, even with the token', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  const res = await post(port, { host: 'evil.example', authorization: `Bearer ${srv.token}` });
  t.is(res.status, 403);
  t.regex(JSON.parse(res.body).detail, /host name not allowed/);
  const start = JSON.stringify({ project: srv.projectId, goal: 'x', start: false });
  const json = { 'content-type': 'application/json' };
  t.is((await rawRequest(port, 'POST', '/api/runs', { ...json, host: 'evil.example:80' }, start)).status, 403);
  t.deepEqual(srv.service.listRuns(), [], 'the refused request started nothing');
  t.is((await rawRequest(port, 'POST', '/api/runs', { ...json, host: `localhost:${port}` }, start)).status, 200);
  t.is(srv.service.listRuns().length, 1);
});

test('cross-site Origin or Sec-Fetch-Site gets 403, even with the token', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  const auth = { authorization: `Bearer ${srv.token}` };
  t.is((await post(port, { ...auth, origin: 'https://evil.example' })).status, 403);
  t.is((await post(port, { ...auth, 'sec-fetch-site': 'cross-site' })).status, 403);
  t.is((await post(port, { ...auth, origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin' })).status, 200);
});

test('the endpoint switched off answers 404, with or without the token; on again it answers', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  await srv.setting({ _tag: 'McpEndpoint', enabled: false });
  const off = await post(port, { authorization: `Bearer ${srv.token}` });
  t.is(off.status, 404);
  t.is(JSON.parse(off.body).detail, 'the tool endpoint is off in Settings');
  t.is((await post(port, {})).status, 404);
  await srv.setting({ _tag: 'McpEndpoint', enabled: true });
  t.is((await post(port, { authorization: `Bearer ${srv.token}` })).status, 200);
});

test('GET and DELETE answer 405 as a stateless server does', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  for (const method of ['GET', 'DELETE']) {
    const res = await rawRequest(port, method, '/mcp', { authorization: `Bearer ${srv.token}`, accept: 'text/event-stream' });
    t.is(res.status, 405, method);
    t.is(res.headers.allow, 'POST');
  }
});

test('a supervisor key is refused with 403 while no supervisor exists', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  const res = await rawRequest(port, 'POST', '/mcp?supervisor=k1', { ...MCP_HEADERS, authorization: `Bearer ${srv.token}` }, INIT);
  t.is(res.status, 403);
  t.regex(JSON.parse(res.body).detail, /supervisor/);
});

test('malformed bodies get JSON-RPC errors and the server keeps answering', async (t) => {
  const { srv, port } = await boot();
  t.teardown(() => srv.close());
  const auth = { authorization: `Bearer ${srv.token}` };
  t.is((await post(port, auth, '{not json')).status, 400);
  t.is((await post(port, auth, '{"hello":1}')).status, 400);
  t.is((await post(port, auth, '')).status, 400);
  const odd = await post(port, auth, rpc('tools/call', { name: 'get_run', arguments: [1, 2] }));
  t.is(odd.status, 200);
  t.truthy(JSON.parse(odd.body).error ?? JSON.parse(odd.body).result?.isError);
  const noArgs = JSON.parse((await post(port, auth, rpc('tools/call', { name: 'get_run' }))).body);
  t.true(noArgs.result.isError);
  t.regex(noArgs.result.content[0].text, /run: is required/);
  const client = await srv.connect();
  t.teardown(() => client.close());
  const res = await call(client, 'list_projects', {});
  t.falsy(res.isError, textOf(res));
  t.deepEqual(json<{ projects: { id: string }[] }>(res).projects.map((p) => p.id), [srv.projectId]);
});
