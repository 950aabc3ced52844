import type { Middleware } from 'koa';
import { LOOPBACK_NAMES, isLoopbackBind, bindHostName } from './host-names.js';
import { crossSiteRefusal } from './cross-site.js';
import { quoteShort, requestHost } from './request-host.js';

// The request guard for every path (/api, /mcp, /run-tools, the app's files) alike (spec,
// Authentication 1-3): a loopback server answers only loopback host names, which defeats DNS
// rebinding; a network bind answers any host name; a state-changing request from another web site
// is refused either way. A request whose host cannot be read for certain (two Host lines, a Host
// that is not `host[:port]`, an absolute-form target naming another host) names none of the allowed
// host names: on a loopback bind it is the spec's 403 like any other name (the detail says what was
// malformed); on a network bind, which answers any name, it is the HTTP standard's 400.

export interface GuardOptions {
  /** the address the server is bound to, e.g. "127.0.0.1" (default) or what --bind gave */
  readonly bind: string;
}

const refuse = (ctx: Parameters<Middleware>[0], status: number, detail: string): void => {
  ctx.status = status;
  ctx.body = { detail };
};
const forbid = (ctx: Parameters<Middleware>[0], detail: string): void => refuse(ctx, 403, detail);

const nameAllowed = (bind: string, name: string | null): boolean =>
  !isLoopbackBind(bind) || (name !== null && (LOOPBACK_NAMES.includes(name) || name === bindHostName(bind)));

/** the host rule's refusal of a request (status and detail), or null: shared with WebSocket upgrades */
export const hostRefusal = (bind: string, rawHeaders: readonly string[], target: string): { status: number; detail: string } | null => {
  const host = requestHost(rawHeaders, target);
  if (host.kind === 'malformed') return { status: isLoopbackBind(bind) ? 403 : 400, detail: host.detail };
  const name = host.kind === 'named' ? host.host.name : null;
  return nameAllowed(bind, name) ? null : { status: 403, detail: `host name not allowed: ${name === null ? '(none)' : quoteShort(name)}` };
};

export const hostRules = (opts: GuardOptions): Middleware => async (ctx, next) => {
  const refused = hostRefusal(opts.bind, ctx.req.rawHeaders, ctx.req.url ?? '');
  if (refused) return refuse(ctx, refused.status, refused.detail);
  await next();
};

export const crossSiteRule = (opts: GuardOptions): Middleware => async (ctx, next) => {
  const refusal = crossSiteRefusal(opts.bind, ctx.method, {
    host: ctx.get('host'),
    origin: ctx.get('origin'),
    fetchSite: ctx.get('sec-fetch-site'),
  });
  if (refusal) return forbid(ctx, refusal);
  await next();
};

/** host rule then cross-site rule; mount once in front of /api and /mcp */
export const requestGuard = (opts: GuardOptions): Middleware => {
  const host = hostRules(opts);
  const cross = crossSiteRule(opts);
  return (ctx, next) => host(ctx, () => cross(ctx, next));
};
