import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { Router } from '@koa/router';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { requestGuard } from '../../../lib/auth/host-rules.js';
import { ensureToken } from '../../../lib/auth/mcp-token.js';
import { mountMcp } from '../../../lib/mcp/endpoint.js';
import type { ServiceApi } from '../../../lib/service-api.js';
import type { SettingsAccess } from '../../../lib/mcp/tool.js';
import { tempHome } from './temp-home.js';

// A real Koa server on 127.0.0.1:0 with the guard and /mcp mounted as the app mounts them,
// plus a POST /api/ping route to show the guard covers /api too.

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly home: string;
  token(): string;
  close(): Promise<void>;
}

export const startServer = async (api: ServiceApi, settings: SettingsAccess, bind = '127.0.0.1'): Promise<TestServer> => {
  const home = tempHome();
  const app = new Koa();
  const router = new Router();
  app.use(requestGuard({ bind }));
  router.post('/api/ping', (ctx) => { ctx.body = { ok: true }; });
  mountMcp(router, { api, settings, home });
  app.use(router.routes());
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    home,
    token: () => ensureToken(home),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
};

export const connect = async (srv: TestServer, token = srv.token(), name = 'test-agent'): Promise<Client> => {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
};
