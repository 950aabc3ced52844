import test from 'ava';
import { statSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { regenerateToken, tokenPath } from '../../lib/auth/mcp-token.js';
import { FakeService } from './helpers/fake-service.js';
import { FakeSettings } from './helpers/fake-settings.js';
import { connect, startServer } from './helpers/server.js';
import { INIT, MCP_HEADERS, rawRequest, rpc } from './helpers/raw-http.js';
import { call, textOf } from './helpers/call.js';

// The tool endpoint's auth matrix over plain HTTP (status codes) and the SDK client.

const boot = async () => {
  const settings = new FakeSettings();
  const srv = await startServer(new FakeService(), settings);
  return { srv, settings };
};

const post = (port: number, headers: Record<string, string>, body = INIT) => rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, ...headers }, body);

test('the token file is created with the endpoint, owner-only', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  t.is(statSync(tokenPath(srv.home)).mode & 0o777, 0o600);
});

test('no token, a wrong token, another scheme: 401 with a detail', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  for (const authorization of [undefined, 'Bearer nope', `Basic ${srv.token()}`, `Bearer ${srv.token()}x`]) {
    const res = await post(srv.port, authorization ? { authorization } : {});
    t.is(res.status, 401, String(authorization));
    t.is(JSON.parse(res.body).detail, 'missing or invalid token');
    t.is(res.headers['www-authenticate'], 'Bearer');
  }
  const ok = await post(srv.port, { authorization: `Bearer ${srv.token()}` });
  t.is(ok.status, 200);
  t.is(JSON.parse(ok.body).result.serverInfo.name, 'svc');
});

test('a regenerated token works at once and the old one is refused', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const old = srv.token();
  t.is((await post(srv.port, { authorization: `Bearer ${old}` })).status, 200);
  const fresh = regenerateToken(srv.home);
  t.is((await post(srv.port, { authorization: `Bearer ${old}` })).status, 401);
  t.is((await post(srv.port, { authorization: `Bearer ${fresh}` })).status, 200);
});

test('the SDK client cannot connect with a wrong token', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const client = new Client({ name: 'intruder', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: 'Bearer wrong' } } });
  await t.throwsAsync(client.connect(transport));
});

test('a foreign Host gets 403 on /mcp and /api alike, even with the token', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const res = await post(srv.port, { host: 'evil.example', authorization: `Bearer ${srv.token()}` });
  t.is(res.status, 403);
  t.regex(JSON.parse(res.body).detail, /host name not allowed/);
  t.is((await rawRequest(srv.port, 'POST', '/api/ping', { host: 'evil.example:80' })).status, 403);
  t.is((await rawRequest(srv.port, 'POST', '/api/ping', { host: `localhost:${srv.port}` })).status, 200);
});

test('cross-site Origin or Sec-Fetch-Site gets 403, even with the token', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const auth = { authorization: `Bearer ${srv.token()}` };
  t.is((await post(srv.port, { ...auth, origin: 'https://evil.example' })).status, 403);
  t.is((await post(srv.port, { ...auth, 'sec-fetch-site': 'cross-site' })).status, 403);
  t.is((await post(srv.port, { ...auth, origin: `http://localhost:${srv.port}`, 'sec-fetch-site': 'same-origin' })).status, 200);
});

test('the endpoint switched off answers 404, with or without the token; on again it answers', async (t) => {
  const { srv, settings } = await boot();
  t.teardown(() => srv.close());
  settings.current = { ...settings.current, mcp: { ...settings.current.mcp, enabled: false } };
  const off = await post(srv.port, { authorization: `Bearer ${srv.token()}` });
  t.is(off.status, 404);
  t.is(JSON.parse(off.body).detail, 'the tool endpoint is off in Settings');
  t.is((await post(srv.port, {})).status, 404);
  settings.current = { ...settings.current, mcp: { ...settings.current.mcp, enabled: true } };
  t.is((await post(srv.port, { authorization: `Bearer ${srv.token()}` })).status, 200);
});

test('GET and DELETE answer 405 as a stateless server does', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  for (const method of ['GET', 'DELETE']) {
    const res = await rawRequest(srv.port, method, '/mcp', { authorization: `Bearer ${srv.token()}`, accept: 'text/event-stream' });
    t.is(res.status, 405, method);
    t.is(res.headers.allow, 'POST');
  }
});

test('a supervisor key is refused with 403 while no supervisor exists', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const res = await rawRequest(srv.port, 'POST', '/mcp?supervisor=k1', { ...MCP_HEADERS, authorization: `Bearer ${srv.token()}` }, INIT);
  t.is(res.status, 403);
  t.regex(JSON.parse(res.body).detail, /supervisor/);
});

test('malformed bodies get JSON-RPC errors and the server keeps answering', async (t) => {
  const { srv } = await boot();
  t.teardown(() => srv.close());
  const auth = { authorization: `Bearer ${srv.token()}` };
  t.is((await post(srv.port, auth, '{not json')).status, 400);
  t.is((await post(srv.port, auth, '{"hello":1}')).status, 400);
  t.is((await post(srv.port, auth, '')).status, 400);
  const odd = await post(srv.port, auth, rpc('tools/call', { name: 'get_run', arguments: [1, 2] }));
  t.is(odd.status, 200);
  t.truthy(JSON.parse(odd.body).error ?? JSON.parse(odd.body).result?.isError);
  const noArgs = JSON.parse((await post(srv.port, auth, rpc('tools/call', { name: 'get_run' }))).body);
  t.true(noArgs.result.isError);
  t.regex(noArgs.result.content[0].text, /run: is required/);
  const client = await connect(srv);
  t.teardown(() => client.close());
  const res = await call(client, 'list_projects', {});
  t.falsy(res.isError);
  t.regex(textOf(res), /"primaryFolder":"app"/);
});
