import '../helpers/env.js';
import test from 'ava';
import { appCodes } from '../../lib/auth/app-codes.js';
import { readToken } from '../../lib/auth/mcp-token.js';
import { startServer } from '../../lib/cli/serve.js';
import { freshHome } from '../helpers/env.js';
import { INIT, MCP_HEADERS, rawRequest } from '../mcp/helpers/raw-http.js';

// POST /api/app/session on a real server started the way `svc app` starts it, and the same route
// on a headless server, where it does not exist.

const windowServer = async () => {
  const codes = appCodes();
  const s = await startServer({ home: freshHome(), port: 0, bind: '127.0.0.1', secret: 'the-secret', codes });
  return { s, codes };
};

const post = (url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${url}/api/app/session`, { method: 'POST', headers, body });

test('a code buys the secret once, without a bearer', async (t) => {
  const { s, codes } = await windowServer();
  t.teardown(() => s.close());
  const code = codes.issue();
  const res = await post(s.url, JSON.stringify({ code }));
  t.is(res.status, 200);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.deepEqual(await res.json(), { secret: 'the-secret' });
  const again = await post(s.url, JSON.stringify({ code }));
  t.is(again.status, 401);
  t.truthy(((await again.json()) as { detail?: string }).detail);
});

test('bad bodies are 4xx with a detail, and spend no code', async (t) => {
  const { s, codes } = await windowServer();
  t.teardown(() => s.close());
  const code = codes.issue();
  for (const [body, headers, status] of [
    ['{', undefined, 400],
    ['[]', undefined, 400],
    [JSON.stringify({ code: 7 }), undefined, 400],
    [JSON.stringify({ code, extra: 1 }), undefined, 400],
    [JSON.stringify({ code }), { 'content-type': 'text/plain' }, 415],
    ['x'.repeat(5000), undefined, 413],
  ] as const) {
    const res = await post(s.url, body, headers);
    t.is(res.status, status, body.slice(0, 40));
    t.truthy(((await res.json()) as { detail?: string }).detail);
  }
  t.is((await post(s.url, JSON.stringify({ code }))).status, 200, 'the code was not spent by the bad tries');
});

test('a request from another site cannot trade a code', async (t) => {
  const { s, codes } = await windowServer();
  t.teardown(() => s.close());
  const code = codes.issue();
  const res = await post(s.url, JSON.stringify({ code }), { 'content-type': 'application/json', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
  t.is(res.status, 403);
  t.is((await post(s.url, JSON.stringify({ code }))).status, 200);
});

test('other methods on the route still need the secret, and a headless server has no such route', async (t) => {
  const { s } = await windowServer();
  t.teardown(() => s.close());
  t.is((await fetch(`${s.url}/api/app/session`)).status, 401);
  const headless = await startServer({ home: freshHome(), port: 0, bind: '127.0.0.1' });
  t.teardown(() => headless.close());
  t.is((await post(headless.url, JSON.stringify({ code: 'x' }))).status, 404);
});

test('/mcp on a window-owned server keeps its own token: the window secret is neither needed nor enough', async (t) => {
  const home = freshHome();
  const s = await startServer({ home, port: 0, bind: '127.0.0.1', secret: 'the-secret', codes: appCodes() });
  t.teardown(() => s.close());
  const port = Number(new URL(s.url).port);
  const token = readToken(home)!;
  t.is((await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: 'Bearer the-secret' }, INIT)).status, 401);
  t.is((await rawRequest(port, 'POST', '/mcp', { ...MCP_HEADERS, authorization: `Bearer ${token}` }, INIT)).status, 200);
});
