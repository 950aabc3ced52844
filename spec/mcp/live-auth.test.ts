import test from 'ava';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tokenPath } from '../../lib/auth/mcp-token.js';
import { mcpTokenCommand } from '../../lib/cli/mcp-token.js';
import { startLive } from './helpers/live.js';
import { INIT, MCP_HEADERS, rawRequest, wireStatus } from './helpers/raw-http.js';

// The auth matrix on the real server as `svc serve` starts it (headless, loopback bind).

const live = startLive();
test.after.always(async () => (await live).server.close());

const portOf = async () => Number(new URL((await live).server.url).port);
const post = async (headers: Record<string, string>, path = '/mcp') => rawRequest(await portOf(), 'POST', path, { ...MCP_HEADERS, ...headers }, INIT);

test.serial('the token exists from the first start, owner-only', async (t) => {
  const { home } = await live;
  t.is(statSync(tokenPath(home)).mode & 0o777, 0o600);
});

// Every file the service wrote under its home, the LMDB environment included; `demo` is the test's
// own repository, not the service's.
const modesUnder = (dir: string, skip: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== skip).flatMap((e) => {
    const path = join(dir, e.name);
    const line = `${(statSync(path).mode & 0o777).toString(8)} ${path}`;
    return e.isDirectory() ? [line, ...modesUnder(path, skip)] : [line];
  });

test.serial('every file the service wrote is owner-only, db/data.mdb and db/lock.mdb included', async (t) => {
  const { home } = await live;
  const lines = modesUnder(home, 'demo');
  t.true(lines.includes(`600 ${join(home, 'db', 'data.mdb')}`), lines.join('\n'));
  t.true(lines.includes(`600 ${join(home, 'db', 'lock.mdb')}`), lines.join('\n'));
  t.deepEqual(lines.filter((l) => !l.startsWith('600 ') && !l.startsWith('700 ')), []);
});

test.serial('a missing or empty Host gets 403, even with the right token', async (t) => {
  const { token } = await live;
  const port = await portOf();
  const mcp = (head: string) => `POST /mcp ${head}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(INIT)}\r\nConnection: close\r\n\r\n${INIT}`;
  // node:http alone answers HTTP/1.1 without Host 400 before the host rule sees it
  t.is(await wireStatus(port, mcp('HTTP/1.1')), 403, 'no Host, HTTP/1.1');
  t.is(await wireStatus(port, mcp('HTTP/1.1\r\nHost:')), 403, 'empty Host');
  t.is(await wireStatus(port, mcp('HTTP/1.0')), 403, 'no Host, HTTP/1.0');
  t.is(await wireStatus(port, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 403, 'no Host on /api');
  t.is(await wireStatus(port, 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n'), 403, 'empty Host on the app');
  t.is(await wireStatus(port, mcp(`HTTP/1.1\r\nHost: localhost:${port}`)), 200, 'the same request with Host localhost');
});

test.serial('a headless server still needs the MCP token: none or wrong is 401, right is 200', async (t) => {
  const { token } = await live;
  t.is((await post({})).status, 401);
  t.is((await post({ authorization: 'Bearer wrong' })).status, 401);
  t.is((await post({ authorization: `Bearer ${token}` })).status, 200);
});

test.serial('svc mcp token --regenerate while the server runs: the old token is refused at once', async (t) => {
  const { home, token } = await live;
  const out: string[] = [];
  t.is(mcpTokenCommand(['--regenerate'], home, (s) => out.push(s)), 0);
  const fresh = out.join('').trim();
  t.not(fresh, token);
  t.is((await post({ authorization: `Bearer ${token}` })).status, 401);
  t.is((await post({ authorization: `Bearer ${fresh}` })).status, 200);
});

test.serial('foreign Host and cross-site requests get 403 before the token is looked at', async (t) => {
  const { home } = await live;
  const out: string[] = [];
  mcpTokenCommand([], home, (s) => out.push(s));
  const auth = { authorization: `Bearer ${out.join('').trim()}` };
  t.is((await post({ ...auth, host: 'attacker.example' })).status, 403);
  t.is((await post({ ...auth, origin: 'https://attacker.example' })).status, 403);
  t.is((await post({ ...auth, 'sec-fetch-site': 'cross-site' })).status, 403);
  t.is((await post({ ...auth, host: `[::1]:${await portOf()}` })).status, 200);
});

test.serial('GET is 405, a supervisor key is 403', async (t) => {
  const { home } = await live;
  const out: string[] = [];
  mcpTokenCommand([], home, (s) => out.push(s));
  const auth = { authorization: `Bearer ${out.join('').trim()}` };
  t.is((await rawRequest(await portOf(), 'GET', '/mcp', auth)).status, 405);
  t.is((await post(auth, '/mcp?supervisor=nobody')).status, 403);
});
