import test from 'ava';
import { testServer, type TestServer } from '../helpers/server.js';
import { requestText, wire } from './wire.js';
import { INIT, MCP_HEADERS } from '../mcp/helpers/raw-http.js';

// The Host rule on the real server, with requests written byte for byte: one strict reading of the
// host (`host[:port]`, exactly one Host line, an absolute-form target that agrees) for every path.
// Before, /api read only a prefix of the first Host line: `localhost:P@evil.com` got the MCP token.

let server: Promise<TestServer>;
test.before(() => { server = testServer(); });
test.after.always(async () => (await server).close());

const portOf = async (): Promise<number> => Number(new URL((await server).url).port);

const PATHS: [string, string, string][] = [
  ['GET /api/settings/mcp', 'GET', '/api/settings/mcp'],
  ['POST /mcp', 'POST', '/mcp'],
  ['POST /run-tools/r1/mcp', 'POST', '/run-tools/r1/mcp'],
  ['GET / (the app)', 'GET', '/'],
];

const mcpHeaders = Object.entries(MCP_HEADERS).map(([k, v]) => `${k}: ${v}`);

const send = async (method: string, target: (p: number) => string, hostLines: (p: number) => string[]) => {
  const p = await portOf();
  const post = method === 'POST';
  return wire(p, requestText(`${method} ${target(p)} HTTP/1.1`, [...hostLines(p), ...(post ? mcpHeaders : [])], post ? INIT : ''));
};

// On a loopback bind a malformed Host names none of the allowed names: 403 like a foreign name,
// with a detail that says what was malformed (a network bind answers it 400: below).
type Kind = 'malformed' | 'foreign';
type Case = [string, (path: string) => (p: number) => string, (p: number) => string[], Kind];
const MALFORMED: Kind = 'malformed';

const origin = (path: string) => () => path;
const BAD: Case[] = [
  ['user info after the port', origin, (p) => [`Host: localhost:${p}@evil.com`], MALFORMED],
  ['a list of hosts', origin, (p) => [`Host: localhost:${p}, evil.com`], MALFORMED],
  ['a name glued to an IPv6 literal', origin, () => ['Host: [::1]evil.com'], MALFORMED],
  ['user info before the name', origin, (p) => [`Host: me@localhost:${p}`], MALFORMED],
  ['a path in the Host', origin, (p) => [`Host: localhost:${p}/x`], MALFORMED],
  ['a port that is not a number', origin, () => ['Host: localhost:8o'], MALFORMED],
  ['a port past 65535', origin, () => ['Host: localhost:99999'], MALFORMED],
  ['a space inside the Host', origin, () => ['Host: local host'], MALFORMED],
  ['two Host lines, the loopback one first', origin, (p) => [`Host: localhost:${p}`, 'Host: evil.com'], MALFORMED],
  ['two equal Host lines', origin, (p) => [`Host: localhost:${p}`, `Host: localhost:${p}`], MALFORMED],
  ['an absolute-form target naming another host', (path) => () => `http://evil.com${path}`, (p) => [`Host: localhost:${p}`], MALFORMED],
  ['an absolute-form target on another port', (path) => (p) => `http://localhost:${p + 1}${path}`, (p) => [`Host: localhost:${p}`], MALFORMED],
  ['an absolute-form target of another scheme', (path) => (p) => `ftp://localhost:${p}${path}`, (p) => [`Host: localhost:${p}`], MALFORMED],
  ['a foreign name', origin, () => ['Host: evil.com'], 'foreign'],
  ['a loopback name as a subdomain', origin, () => ['Host: localhost.evil.com'], 'foreign'],
  ['no Host line', origin, () => [], 'foreign'],
];

for (const [name, target, hosts, kind] of BAD) {
  for (const [pathName, method, path] of PATHS) {
    test(`${pathName} with ${name}: 403 and a detail saying it is ${kind}`, async (t) => {
      const res = await send(method, target(path), hosts);
      t.is(res.status, 403, res.headers);
      t.regex(JSON.parse(res.body).detail, kind === 'malformed' ? /Host|request target/ : /host name not allowed/);
    });
  }
}

type GoodCase = [string, (path: string) => (p: number) => string, (p: number) => string[], number];
const GOOD: GoodCase[] = [
  ['localhost and the port', origin, (p) => [`Host: localhost:${p}`], 200],
  ['an upper-case name', origin, (p) => [`Host: LOCALHOST:${p}`], 200],
  ['127.0.0.1 without a port', origin, () => ['Host: 127.0.0.1'], 200],
  ['the IPv6 loopback', origin, (p) => [`Host: [::1]:${p}`], 200],
  ['an absolute-form target that agrees', (path) => (p) => `http://localhost:${p}${path}`, (p) => [`Host: localhost:${p}`], 200],
  ['an absolute-form target on the default port', (path) => () => `http://localhost${path}`, () => ['Host: localhost:80'], 200],
];

for (const [name, target, hosts, status] of GOOD) {
  test(`GET /api/settings/mcp with ${name}: ${status}`, async (t) => {
    const res = await send('GET', target('/api/settings/mcp'), hosts);
    t.is(res.status, status, res.body);
    t.truthy(JSON.parse(res.body).token);
  });
}
