import test from 'ava';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { windowSecret } from '../../lib/auth/window-secret.js';
import { rawRequest } from '../mcp/helpers/raw-http.js';
import { tempHome } from '../mcp/helpers/temp-home.js';

// nothing here should touch a home folder; if something does, it is a temp one
tempHome('svc-auth-');

const serve = async (secret?: string): Promise<{ port: number; server: Server }> => {
  const app = new Koa();
  app.use(windowSecret(secret));
  app.use((ctx) => { ctx.body = { ok: true }; });
  const server: Server = await new Promise((r) => { const s = app.listen(0, '127.0.0.1', () => r(s)); });
  return { port: (server.address() as AddressInfo).port, server };
};

test('a headless server (no secret) accepts a request without Authorization', async (t) => {
  const { port, server } = await serve();
  t.teardown(() => server.close());
  t.is((await rawRequest(port, 'GET', '/')).status, 200);
});

test("a window's server answers 401 without the secret or with a wrong one, 200 with it", async (t) => {
  const { port, server } = await serve('s3cret-value');
  t.teardown(() => server.close());
  const none = await rawRequest(port, 'GET', '/');
  t.is(none.status, 401);
  t.is(JSON.parse(none.body).detail, 'missing or wrong secret');
  t.is((await rawRequest(port, 'GET', '/', { authorization: 'Bearer s3cret-valuf' })).status, 401);
  t.is((await rawRequest(port, 'GET', '/', { authorization: 's3cret-value' })).status, 401);
  t.is((await rawRequest(port, 'GET', '/', { authorization: 'Bearer s3cret-value' })).status, 200);
});
