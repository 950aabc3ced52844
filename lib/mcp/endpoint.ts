import type Koa from 'koa';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Router } from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ServiceApi } from '../service/api.js';
import { bearerToken } from '../auth/bearer.js';
import { ensureToken, tokenCheck, type TokenCheck } from '../auth/mcp-token.js';
import type { SettingsAccess } from './tool.js';
import { buildServer, callTool, type RequestScope } from './server.js';
import { callWithBadArguments, readRpcBody, tooDeepText } from './request-body.js';
import { errorAnswer } from './answer.js';
import type { SupervisorSession } from './supervisor-session.js';
import { clientName, rememberClient } from './client-name.js';

// The tool endpoint at /mcp: Streamable HTTP, stateless, JSON responses, one transport and one
// server per request. Order of refusals: endpoint off (404), token (401), supervisor key (403),
// method (405). Host and cross-site rules run before this, in lib/auth/host-rules.ts.

export interface McpDeps {
  readonly api: ServiceApi;
  readonly settings: SettingsAccess;
  /** the service home (SVC_HOME); the token lives in <home>/mcp-token */
  readonly home: string;
  /** token check; by default reads <home>/mcp-token, creating it on first start */
  readonly checkToken?: TokenCheck;
  /** the supervisor a key names while the feature is on (lib/mcp/supervisor-session.ts); without it every key gets 403 */
  readonly supervisor?: (key: string) => SupervisorSession | undefined;
}

export const MCP_PATH = '/mcp';
const SUPERVISOR_REFUSED = 'supervisor key refused: the supervisor feature is off or no such supervisor exists';

// The challenge names where the token comes from; clients show error_description to the person.
// There is no OAuth: /.well-known/oauth-* answer a JSON 404 (lib/http/not-found.ts).
export const TOKEN_REFUSED = 'missing or invalid token: print the token with `svc mcp token` and send it as Authorization: Bearer <token>';
export const TOKEN_CHALLENGE = `Bearer error="invalid_token", error_description="${TOKEN_REFUSED}"`;

type Ctx = ParameterizedContext;

const refuse = (ctx: Ctx, status: number, detail: string): void => {
  ctx.status = status;
  ctx.body = { detail };
};

// What the SDK's stateless examples answer to GET (no standalone SSE stream) and DELETE (no session).
const methodNotAllowed = (ctx: Ctx): void => {
  ctx.status = 405;
  ctx.set('Allow', 'POST');
  ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
};

const serve = async (ctx: Ctx, deps: McpDeps, session: SupervisorSession | undefined): Promise<void> => {
  const aborter = new AbortController();
  const scope: RequestScope = {
    api: deps.api,
    settings: deps.settings,
    caller: () => clientName(ctx.req.socket, ctx.get('user-agent')),
    signal: aborter.signal,
    ...(session ? { session } : {}),
  };
  const body = await readRpcBody(ctx);
  if (body === null) return;
  const bad = callWithBadArguments(body);
  if (bad) {
    ctx.status = 200;
    ctx.body = { jsonrpc: '2.0', id: bad.id, result: bad.problem ? errorAnswer(tooDeepText(bad)) : await callTool(bad.name, bad.args, scope) };
    return;
  }
  const server = buildServer(scope);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  ctx.res.on('close', () => {
    aborter.abort();
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  ctx.respond = false;
  await transport.handleRequest(ctx.req, ctx.res, body);
  rememberClient(ctx.req.socket, ctx.get('user-agent') || undefined, server.getClientVersion()?.name);
};

// Answered on the raw response: Koa must not write after us, whether or not the transport started.
const internalError = (ctx: Ctx, e: unknown): void => {
  ctx.respond = false;
  if (ctx.res.headersSent) return void ctx.res.end();
  ctx.res.writeHead(500, { 'Content-Type': 'application/json' });
  ctx.res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `internal error: ${e instanceof Error ? e.message : String(e)}` }, id: null }));
};

export const mcpHandler = (deps: McpDeps): Middleware => {
  const check = deps.checkToken ?? tokenCheck(deps.home);
  return async (ctx) => {
    if (!deps.settings.read().mcp.enabled) return refuse(ctx, 404, 'the tool endpoint is off in Settings');
    if (!check(bearerToken(ctx.get('authorization')))) {
      ctx.set('WWW-Authenticate', TOKEN_CHALLENGE);
      return refuse(ctx, 401, TOKEN_REFUSED);
    }
    const key = ctx.query.supervisor;
    const session = typeof key === 'string' ? deps.supervisor?.(key) : undefined;
    if (key !== undefined && !session) return refuse(ctx, 403, SUPERVISOR_REFUSED);
    if (ctx.method !== 'POST') return methodNotAllowed(ctx);
    try {
      await serve(ctx, deps, session);
    } catch (e) {
      internalError(ctx, e);
    }
  };
};

const isRouter = (x: Router | Koa): x is Router => typeof (x as Router).all === 'function';

/** mounts /mcp on a router (all methods) or, given a Koa app, as a path-matching middleware */
export const mountMcp = (target: Router | Koa, deps: McpDeps): void => {
  if (!deps.checkToken) ensureToken(deps.home);
  const handler = mcpHandler(deps);
  if (isRouter(target)) {
    target.all(MCP_PATH, handler);
    return;
  }
  target.use((ctx, next) => (ctx.path === MCP_PATH ? handler(ctx, next) : next()));
};
