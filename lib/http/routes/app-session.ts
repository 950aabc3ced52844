import type Koa from 'koa';
import * as t from 'io-ts';
import type { AppCodes } from '../../auth/app-codes.js';
import { readJson } from '../../inputs/body.js';
import { decodeOr400, refuseUnknownFields } from '../decode.js';

// POST /api/app/session {code} -> {secret}: the one /api call of a window's server that needs no
// bearer, because it is how the window gets the bearer. Mounted before the secret check, only on
// a server a window owns.

export const SESSION_PATH = '/api/app/session';

const SessionBody = t.type({ code: t.string }, 'SessionBody');

export const appSession = (secret: string, codes: AppCodes): Koa.Middleware => async (ctx, next) => {
  if (ctx.path !== SESSION_PATH || ctx.method !== 'POST') return next();
  const raw = await readJson(ctx, 4096);
  refuseUnknownFields(raw, ['code']);
  const { code } = decodeOr400(SessionBody, raw);
  ctx.set('Cache-Control', 'no-store');
  if (!codes.redeem(code)) {
    ctx.status = 401;
    ctx.body = { detail: 'unknown, used or expired code; start `svc app` again to open a new window' };
    return;
  }
  ctx.body = { secret };
};
