// What the supervisor-turn tests share: a real server, a second real /mcp mount over the same
// service that accepts one made-up key with every tool (so a turn is tested apart from part 1's
// records and rules; live-kit.ts drives the server's own endpoint), and turn deps on the real
// CLIs from node_modules/.bin.
import Koa from 'koa';
import { right } from 'fp-ts/lib/Either.js';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { readToken } from '../../lib/auth/mcp-token.js';
import { mountMcp } from '../../lib/mcp/endpoint.js';
import { supervisorHarnesses } from '../../lib/supervisors/agent/harnesses.js';
import { supervisorEndpointUrl, type SupervisorTurnDeps } from '../../lib/supervisors/agent/turn.js';
import { repoRoot } from '../helpers/env.js';
import { unscopedSession } from '../fixtures/supervisors/unscoped-session.js';
import { realCliEnv } from '../helpers/real-run.js';
import { testServer, type TestServer } from '../helpers/server.js';

export interface TurnKit {
  readonly s: TestServer;
  readonly deps: SupervisorTurnDeps;
  readonly logs: string[];
  close(): Promise<void>;
}

export const keyedEndpoint = async (s: TestServer, key: string): Promise<{ url: string; close(): Promise<void> }> => {
  const app = new Koa();
  mountMcp(app, {
    api: s.service, home: s.home,
    settings: { read: () => s.service.settings(), change: (change, source) => right(s.service.changeSetting(change, source)) },
    supervisor: (k) => (k === key ? unscopedSession('fixture') : undefined),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
};

/** Real CLIs for supervisor turns (runs would stay on SVC_HARNESS_MODULE), pointed at `modelUrl`. */
export const turnKit = async (key: string): Promise<TurnKit> => {
  realCliEnv('claude');
  Object.assign(process.env, {
    SVC_SUPERVISOR_HARNESSES: 'cli',
    SVC_HARNESS_BIN_CODEX: join(repoRoot, 'node_modules', '.bin', 'codex'),
    SVC_HARNESS_MODULE: join(repoRoot, 'spec', 'fixtures', 'harness', 'scripted.ts'),
  });
  const s = await testServer();
  const mcp = await keyedEndpoint(s, key);
  const logs: string[] = [];
  const deps: SupervisorTurnDeps = {
    home: s.home,
    harness: (name) => supervisorHarnesses(s.service.core.harnesses)[name],
    endpoint: (k) => ({ url: supervisorEndpointUrl(mcp.url, k), token: readToken(s.home) ?? '' }),
    watchdogMs: () => 120_000,
    onLog: (_id, text) => void logs.push(text),
  };
  return { s, deps, logs, close: async () => (await mcp.close(), await s.close()) };
};
