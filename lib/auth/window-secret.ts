import type { Middleware } from 'koa';
import { bearerToken, secretsEqual } from './bearer.js';

// A server that a window owns records a secret in server.json; every /api request must then carry
// `Authorization: Bearer <secret>` (spec, Authentication > HTTP API). A headless server has no
// secret and this is a pass-through. Mount it on /api only: /mcp uses the same header for its token.

export const windowSecret = (secret?: string): Middleware => async (ctx, next) => {
  if (secret === undefined || secret === '') return next();
  const given = bearerToken(ctx.get('authorization'));
  if (given === null || !secretsEqual(secret, given)) {
    ctx.status = 401;
    ctx.set('WWW-Authenticate', 'Bearer');
    ctx.body = { detail: 'missing or wrong secret' };
    return;
  }
  await next();
};
