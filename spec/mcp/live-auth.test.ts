import test from 'ava';
import { statSync } from 'node:fs';
import { tokenPath } from '../../lib/auth/mcp-token.js';
import { mcpTokenCommand } from '../../lib/cli/mcp-token.js';
import { startLive } from './helpers/live.js';
import { INIT, MCP_HEADERS, rawRequest } from './helpers/raw-http.js';

// The auth matrix on the real server as `svc serve` starts it (headless, loopback bind).

const live = startLive();
test.after.always(async () => (await live).server.close());

const portOf = async () => Number(new URL((await live).server.url).port);
const post = async (headers: Record<string, string>, path = '/mcp') => rawRequest(await portOf(), 'POST', path, { ...MCP_HEADERS, ...headers }, INIT);

test.serial('the token exists from the first start, owner-only', async (t) => {
  const { home } = await live;
  t.is(statSync(tokenPath(home)).mode & 0o777, 0o600);
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
