import '../helpers/env.js';
import test from 'ava';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { testServer } from '../helpers/server.js';
import { INIT, MCP_HEADERS, rawRequest } from '../mcp/helpers/raw-http.js';

// /mcp?supervisor=<key>: the bearer token first (401), then the key (403 while the feature is off
// or no supervisor holds it), on the real server. A regenerated key retires the old one.

const s = testServer();
test.after.always(async () => (await s).close());

const post = async (path: string, bearer: string | null) => {
  const srv = await s;
  const port = Number(new URL(srv.url).port);
  return rawRequest(port, 'POST', path, { ...MCP_HEADERS, ...(bearer !== null ? { authorization: `Bearer ${bearer}` } : {}) }, INIT);
};

const feature = async (enabled: boolean) => (await s).send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled }), { 'content-type': 'application/json' });

test.serial('the 401-then-403 matrix', async (t) => {
  const srv = await s;
  const token = ensureToken(srv.home);
  await feature(true);
  const key = (await srv.get('/api/supervisors/global')).body.key as string;
  await feature(false);
  const rows: readonly [string, string, string | null, number][] = [
    ['feature off, no bearer', `/mcp?supervisor=${key}`, null, 401],
    ['feature off, wrong bearer', `/mcp?supervisor=${key}`, 'nope', 401],
    ['feature off, a real key', `/mcp?supervisor=${key}`, token, 403],
    ['feature off, an unknown key', '/mcp?supervisor=nobody', token, 403],
    ['feature off, no key at all', '/mcp', token, 200],
  ];
  const onRows: readonly [string, string, string | null, number][] = [
    ['feature on, no bearer', `/mcp?supervisor=${key}`, null, 401],
    ['feature on, an unknown key', '/mcp?supervisor=nobody', token, 403],
    ['feature on, an empty key', '/mcp?supervisor=', token, 403],
    ['feature on, the key twice', `/mcp?supervisor=${key}&supervisor=${key}`, token, 403],
    ['feature on, a real key', `/mcp?supervisor=${key}`, token, 200],
  ];
  const run = async (table: typeof rows) => {
    for (const [name, path, bearer, status] of table) {
      const r = await post(path, bearer);
      t.is(r.status, status, `${name}: ${r.body}`);
      if (status === 403) t.regex(JSON.parse(r.body).detail, /supervisor feature is off or no such supervisor exists/);
    }
  };
  await run(rows);
  await feature(true);
  await run(onRows);
});

test.serial('a regenerated key gets 403; the new one is let in', async (t) => {
  const srv = await s;
  const token = ensureToken(srv.home);
  await feature(true);
  const old = (await srv.get('/api/supervisors/global')).body.key as string;
  const fresh = (await srv.post('/api/supervisors/global/key', {})).body.key as string;
  t.is((await post(`/mcp?supervisor=${old}`, token)).status, 403);
  t.is((await post(`/mcp?supervisor=${fresh}`, token)).status, 200);
});
