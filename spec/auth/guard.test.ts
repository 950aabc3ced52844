import test from 'ava';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { requestGuard } from '../../lib/auth/host-rules.js';
import { hostName, isLoopbackBind } from '../../lib/auth/host-names.js';
import { crossSiteRefusal } from '../../lib/auth/cross-site.js';
import { rawRequest, wireStatus } from '../mcp/helpers/raw-http.js';
import { tempHome } from '../mcp/helpers/temp-home.js';

// nothing here should touch a home folder; if something does, it is a temp one
tempHome('svc-auth-');

// The request guard on a real Koa server: host names by bind, and the cross-site rule.

const serve = async (bind: string): Promise<{ port: number; server: Server }> => {
  const app = new Koa();
  app.use(requestGuard({ bind }));
  app.use((ctx) => { ctx.body = { ok: true }; });
  const server: Server = await new Promise((r) => { const s = app.listen(0, '127.0.0.1', () => r(s)); });
  return { port: (server.address() as AddressInfo).port, server };
};

const loopback = serve('127.0.0.1');
const network = serve('192.168.7.9');
test.after.always(async () => {
  for (const s of [await loopback, await network]) s.server.close();
});

for (const host of ['localhost', 'localhost:4321', '127.0.0.1:80', '[::1]:9', 'LOCALHOST']) {
  test(`loopback bind answers Host ${host}`, async (t) => {
    const { port } = await loopback;
    t.is((await rawRequest(port, 'GET', '/', { host })).status, 200);
  });
}

for (const host of ['evil.example', 'evil.example:80', '192.168.7.9', 'localhost.evil.example', '127.0.0.1.nip.io']) {
  test(`loopback bind refuses Host ${host} with 403 and a detail`, async (t) => {
    const { port } = await loopback;
    const res = await rawRequest(port, 'GET', '/', { host });
    t.is(res.status, 403);
    t.regex(JSON.parse(res.body).detail, /host name not allowed/);
  });
}

// node:http always writes a Host line, so these requests are written byte for byte.
const NO_HOST: [string, string][] = [
  ['an empty Host (HTTP/1.1)', 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n'],
  ['a blank Host (HTTP/1.1)', 'GET / HTTP/1.1\r\nHost:  \r\nConnection: close\r\n\r\n'],
  ['no Host (HTTP/1.0)', 'GET / HTTP/1.0\r\n\r\n'],
];
for (const [name, text] of NO_HOST) {
  test(`loopback bind refuses ${name} with 403`, async (t) => {
    const { port } = await loopback;
    t.is(await wireStatus(port, text), 403);
  });
}

test('network bind answers any host name', async (t) => {
  const { port } = await network;
  t.is((await rawRequest(port, 'GET', '/', { host: 'anything.example' })).status, 200);
});

const crossSite: [string, Record<string, string>, number][] = [
  ['POST with Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
  ['POST with Origin of another site', { origin: 'https://evil.example' }, 403],
  ['POST with Origin null', { origin: 'null' }, 403],
  ['POST with a malformed Origin', { origin: '::::' }, 403],
  ['POST with Origin localhost on another port', { origin: 'http://localhost:5173' }, 200],
  ['POST with Origin 127.0.0.1', { origin: 'http://127.0.0.1:9' }, 200],
  ['POST with Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, 200],
  ['POST without browser headers (curl, agents)', {}, 200],
];
for (const [name, headers, status] of crossSite) {
  test(`loopback: ${name} -> ${status}`, async (t) => {
    const { port } = await loopback;
    t.is((await rawRequest(port, 'POST', '/', { host: 'localhost', ...headers }, '{}')).status, status);
  });
}

for (const method of ['GET', 'HEAD', 'OPTIONS']) {
  test(`cross-site ${method} is a read and passes`, async (t) => {
    const { port } = await loopback;
    t.is((await rawRequest(port, method, '/', { host: 'localhost', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).status, 200);
  });
}

for (const method of ['PUT', 'PATCH', 'DELETE']) {
  test(`cross-site ${method} is refused`, async (t) => {
    const { port } = await loopback;
    t.is((await rawRequest(port, method, '/', { host: 'localhost', origin: 'https://evil.example' })).status, 403);
  });
}

test('network bind: Origin of the bound host passes, another site is refused', async (t) => {
  const { port } = await network;
  t.is((await rawRequest(port, 'POST', '/', { host: '192.168.7.9:80', origin: 'http://192.168.7.9:80' }, '{}')).status, 200);
  t.is((await rawRequest(port, 'POST', '/', { host: '192.168.7.9:80', origin: 'http://evil.example' }, '{}')).status, 403);
  t.is((await rawRequest(port, 'POST', '/', { host: '192.168.7.9:80', 'sec-fetch-site': 'cross-site' }, '{}')).status, 403);
});

test('host names parse ports, brackets and case', (t) => {
  t.is(hostName('LocalHost:8080'), 'localhost');
  t.is(hostName('[::1]:80'), '[::1]');
  t.is(hostName('[::1'), null);
  t.is(hostName(''), null);
  t.is(hostName(undefined), null);
  for (const bad of ['localhost:80@evil.example', 'localhost:80, evil.example', '[::1]evil.example', 'me@localhost', 'localhost:', 'localhost:65536', '[localhost]', 'local host'])
    t.is(hostName(bad), null, bad);
});

test('network bind answers any host name, but not a malformed Host (400)', async (t) => {
  const { port } = await network;
  const res = await rawRequest(port, 'GET', '/', { host: 'anything.example, evil.example' });
  t.is(res.status, 400);
  t.regex(JSON.parse(res.body).detail, /Host header is not host\[:port\]/);
});

test('loopback binds are 127/8, ::1 and localhost; 0.0.0.0 is a network bind', (t) => {
  t.true(isLoopbackBind('127.0.0.1'));
  t.true(isLoopbackBind('127.1.2.3'));
  t.true(isLoopbackBind('::1'));
  t.true(isLoopbackBind('localhost'));
  t.false(isLoopbackBind('0.0.0.0'));
  t.false(isLoopbackBind('192.168.1.2'));
  t.false(isLoopbackBind('::'));
});

test('cross-site refusal text names the origin', (t) => {
  t.is(crossSiteRefusal('127.0.0.1', 'POST', { host: 'localhost', origin: 'https://evil.example', fetchSite: '' }), 'cross-site request refused (origin https://evil.example)');
  t.is(crossSiteRefusal('127.0.0.1', 'get', { host: 'localhost', origin: 'https://evil.example', fetchSite: 'cross-site' }), null);
});
