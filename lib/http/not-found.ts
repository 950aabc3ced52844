import type Koa from 'koa';
import { quoted } from '../../domain/quoted.js';

// Paths that belong to the API, the tool endpoint, the run tool servers or /.well-known are
// answered in JSON: a 404 with a detail when no route took them, never the browser app's HTML.
// MCP clients probe /.well-known/oauth-* after a 401; an HTML 200 there made them report a JSON
// parse error instead of the authentication failure.

const JSON_PREFIXES = ['/api/', '/mcp/', '/run-tools/', '/.well-known/'] as const;
const JSON_EXACT = ['/api', '/mcp', '/run-tools', '/.well-known'] as const;

// When discovery finds no metadata, MCP clients fall back to the OAuth endpoints the MCP spec names
// at the server's root (Claude Code POSTs /register): they are answered too, naming the token.
const OAUTH_FALLBACKS = ['/register', '/authorize', '/token'] as const;

const isOauthPath = (path: string): boolean => path.startsWith('/.well-known/oauth') || (OAUTH_FALLBACKS as readonly string[]).includes(path);

export const isJsonPath = (path: string): boolean =>
  isOauthPath(path) || JSON_EXACT.some((p) => path === p) || JSON_PREFIXES.some((p) => path.startsWith(p));

export const OAUTH_DETAIL = 'svc has no OAuth: its tool endpoint takes a bearer token (Authorization: Bearer <token>); print the token with `svc mcp token`';

export const notFound = (ctx: Koa.ParameterizedContext): void => {
  ctx.status = 404;
  ctx.body = { detail: isOauthPath(ctx.path) ? OAUTH_DETAIL : `no route ${quoted(ctx.method)} ${quoted(ctx.path)}` };
};

/** answers a JSON path that no route took; every other path goes on to the app */
export const jsonNotFound: Koa.Middleware = async (ctx, next) => (isJsonPath(ctx.path) ? notFound(ctx) : next());
