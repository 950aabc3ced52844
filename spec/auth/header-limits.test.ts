import test from 'ava';
import { testServer, type TestServer } from '../helpers/server.js';
import { requestText, wire } from './wire.js';
import { INIT, MCP_HEADERS } from '../mcp/helpers/raw-http.js';

// Oversized headers on the real server: Node refuses them before the app runs, and answered with an
// empty 431 then destroyed the socket, so a client still sending met a reset. Every path now gets a
// 431 with a JSON detail, read in full by a client that has not finished writing.

let server: Promise<TestServer>;
test.before(() => { server = testServer(); });
test.after.always(async () => (await server).close());

const PATHS: [string, string][] = [['GET', '/api/settings/mcp'], ['POST', '/mcp'], ['POST', '/run-tools/r1/mcp'], ['GET', '/']];
const mcpHeaders = Object.entries(MCP_HEADERS).map(([k, v]) => `${k}: ${v}`);

const HEADERS: [string, () => string[], RegExp][] = [
  ['one 100 KB header', () => [`X-Big: ${'a'.repeat(100_000)}`], /headers too large/],
  ['3,000 headers', () => Array.from({ length: 3000 }, (_, i) => `X-Header-${i}: value`), /headers too large/],
  // small enough for Node's 16 KB, past its 2,000-line count: it dropped the lines past 2,000 unseen
  ['2,100 tiny header lines', () => Array.from({ length: 2100 }, () => 'a: 1'), /too many request header lines/],
];

for (const [name, lines, detail] of HEADERS) {
  for (const [method, path] of PATHS) {
    test(`${method} ${path} with ${name}: 431 with a JSON detail`, async (t) => {
      const port = Number(new URL((await server).url).port);
      const post = method === 'POST';
      const text = requestText(`${method} ${path} HTTP/1.1`, ['Host: localhost', ...(post ? mcpHeaders : []), ...lines()], post ? INIT : '');
      const res = await wire(port, text);
      t.is(res.error, null);
      t.is(res.status, 431, res.headers);
      t.regex(res.headers, /content-type: application\/json/i);
      t.regex(JSON.parse(res.body).detail, detail);
    });
  }
}

test('a second Host line past 2,000 header lines is not dropped unseen', async (t) => {
  const port = Number(new URL((await server).url).port);
  const filler = Array.from({ length: 2100 }, () => 'a: 1');
  const res = await wire(port, requestText('GET /api/settings/mcp HTTP/1.1', ['Host: localhost', ...filler, 'Host: evil.com']));
  t.is(res.status, 431);
  t.false(res.body.includes('token'));
});

test('POST /mcp with an oversized header and a 2 MB body still being sent: the 431, not a reset', async (t) => {
  const port = Number(new URL((await server).url).port);
  const body = JSON.stringify({ pad: 'x'.repeat(2_000_000) });
  const res = await wire(port, requestText('POST /mcp HTTP/1.1', ['Host: localhost', ...mcpHeaders, `X-Big: ${'a'.repeat(100_000)}`], body));
  t.is(res.error, null);
  t.is(res.status, 431);
  t.regex(JSON.parse(res.body).detail, /headers too large/);
});

test('a request line Node cannot parse: 400 with a JSON detail', async (t) => {
  const port = Number(new URL((await server).url).port);
  const res = await wire(port, 'GET /api/health HTTP/9\r\nHost: localhost\r\n\r\n');
  t.is(res.status, 400);
  t.regex(JSON.parse(res.body).detail, /malformed HTTP request/);
});
