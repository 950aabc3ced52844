import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Koa from 'koa';
import { cacheControl, staticApp } from '../../lib/http/static.js';
import { buildWeb } from '../../scripts/build-web.js';
import { tempDir } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';

// Which paths get the browser app and which get JSON, on the real server; and the file server's
// validators and caching, on a web root of the test's own (web-dist is another build's output).

const test = anyTest as TestFn<{ s: TestServer; files: { url: string; server: Server } }>;

const INDEX = '<!doctype html><title>app</title>';

test.before(async (t) => {
  // web-dist is generated: the app routes need its index.html
  await buildWeb();
  const s = await testServer();
  const root = tempDir('svc-web-');
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'app.js'), 'console.log(1)\n');
  writeFileSync(join(root, 'app-4F2KX7QA.js'), 'console.log(2)\n');
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, '.secret.json'), '{"secret":1}');
  const app = new Koa();
  app.use(staticApp(root));
  const server = createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.context = { s, files: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server } };
});
test.after.always(async (t) => {
  await t.context.s?.close();
  t.context.files?.server.close();
});

// Paths that are not the app's: a JSON 404 with a detail, whatever the method.
const JSON_404: readonly (readonly [method: string, path: string])[] = [
  ['GET', '/.well-known/oauth-protected-resource'],
  ['GET', '/.well-known/oauth-authorization-server'],
  ['GET', '/.well-known/oauth-protected-resource/mcp'],
  ['GET', '/.well-known/openid-configuration'],
  ['GET', '/.well-known'],
  ['POST', '/register'],
  ['GET', '/authorize'],
  ['POST', '/token'],
  ['GET', '/api/nothing-here'],
  ['GET', '/api'],
  ['GET', '/mcp/other'],
  ['POST', '/mcp/tools'],
  ['GET', '/run-tools/r-nope/other'],
  ['GET', '/missing.js'],
  ['GET', '/runs/r-1/picture.png'],
  ['GET', '/favicon.png'],
];

for (const [method, path] of JSON_404) {
  test(`${method} ${path} → 404 application/json with a detail`, async (t) => {
    const res = await fetch(t.context.s.url + path, { method });
    t.is(res.status, 404);
    t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { detail?: unknown };
    t.is(typeof body.detail, 'string');
    if (/oauth|register|authorize|token/.test(path)) t.regex(body.detail as string, /svc mcp token/);
  });
}

for (const path of ['/', '/runs/r-1', '/settings', '/projects/demo/runs', '/index.html']) {
  test(`GET ${path} → the app's index.html, revalidated on every load`, async (t) => {
    const res = await fetch(t.context.s.url + path);
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
    t.is(res.headers.get('cache-control'), 'no-cache');
    t.truthy(res.headers.get('etag'));
    t.regex(await res.text(), /<html|<!doctype/i);
  });
}

test('POST on an app route → 405 JSON naming GET and HEAD', async (t) => {
  const res = await fetch(`${t.context.s.url}/runs/r-1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'GET, HEAD');
  t.regex(((await res.json()) as { detail: string }).detail, /GET and HEAD/);
});

test('an asset: ETag, then 304 on If-None-Match; another ETag gets the file', async (t) => {
  const { url } = t.context.files;
  const first = await fetch(`${url}/app.js`);
  t.is(first.status, 200);
  t.regex(first.headers.get('content-type') ?? '', /javascript/);
  t.is(first.headers.get('cache-control'), 'no-cache');
  t.is(first.headers.get('x-content-type-options'), 'nosniff');
  t.is(await first.text(), 'console.log(1)\n');
  const tag = first.headers.get('etag');
  t.truthy(tag);
  // fetch adds `cache-control: no-cache` to a conditional request unless one is given, and that
  // rightly defeats a 304; a browser's revalidation sends max-age=0
  const revalidate = (etag: string) => ({ 'if-none-match': etag, 'cache-control': 'max-age=0' });
  const again = await fetch(`${url}/app.js`, { headers: revalidate(tag!) });
  t.is(again.status, 304);
  t.is(await again.text(), '');
  const other = await fetch(`${url}/app.js`, { headers: revalidate('W/"other"') });
  t.is(other.status, 200);
  const index = await fetch(`${url}/runs/r-9`);
  t.is(await index.text(), INDEX);
  t.is((await fetch(`${url}/`, { headers: revalidate(index.headers.get('etag')!) })).status, 304);
});

test('a content-hashed asset may be kept a year; a sub-folder asset is served', async (t) => {
  const { url } = t.context.files;
  const hashed = await fetch(`${url}/app-4F2KX7QA.js`);
  t.is(hashed.status, 200);
  t.is(hashed.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const logo = await fetch(`${url}/assets/logo.svg`);
  t.is(logo.status, 200);
  t.regex(logo.headers.get('content-type') ?? '', /^image\/svg\+xml/);
});

test('hidden files, paths out of the root and malformed paths are refused in JSON, never served', async (t) => {
  const { url } = t.context.files;
  for (const path of ['/.secret.json', '/..%2f..%2f..%2fetc%2fhostname.txt', '/%2e%2e/%2e%2e/etc/hostname.txt', '/bad%E0%A4%A.js']) {
    const res = await fetch(url + path);
    t.true(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    t.regex(res.headers.get('content-type') ?? '', /^application\/json/, path);
    t.is(typeof ((await res.json()) as { detail?: unknown }).detail, 'string', path);
  }
});

for (const [name, expected] of [
  ['index.html', 'no-cache'],
  ['app.js', 'no-cache'],
  ['app-component.js', 'no-cache'],
  ['app-4F2KX7QA.js', 'public, max-age=31536000, immutable'],
  ['chunk.a1b2c3d4.css', 'public, max-age=31536000, immutable'],
  ['/srv/web-dist/chunks/runs-ABCDEFGH.js', 'public, max-age=31536000, immutable'],
  ['/srv/web-dist/app.js', 'no-cache'],
] as const) {
  test(`cache-control for ${name}: ${expected}`, (t) => t.is(cacheControl(name), expected));
}
