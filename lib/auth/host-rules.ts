import type { Middleware } from 'koa';
import { LOOPBACK_NAMES, hostName, isLoopbackBind, bindHostName } from './host-names.js';
import { crossSiteRefusal } from './cross-site.js';

// The request guard for /api and /mcp alike (spec, Authentication 1-3): a loopback server answers
// only loopback host names, which defeats DNS rebinding; a network bind answers any host name;
// a state-changing request from another web site is refused either way.

export interface GuardOptions {
  /** the address the server is bound to, e.g. "127.0.0.1" (default) or what --bind gave */
  readonly bind: string;
}

const forbid = (ctx: Parameters<Middleware>[0], detail: string): void => {
  ctx.status = 403;
  ctx.body = { detail };
};

export const hostAllowed = (bind: string, host: string | undefined): boolean => {
  if (!isLoopbackBind(bind)) return true;
  const name = hostName(host);
  return name !== null && (LOOPBACK_NAMES.includes(name) || name === bindHostName(bind));
};

export const hostRules = (opts: GuardOptions): Middleware => async (ctx, next) => {
  if (!hostAllowed(opts.bind, ctx.get('host'))) return forbid(ctx, `host name not allowed: ${ctx.get('host') || '(none)'}`);
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
