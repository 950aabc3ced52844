import type { Context } from 'koa';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Outcome } from '../../commands/refusal.js';
import { refusalText } from '../../commands/refusal.js';
import type { Actor } from '../../domain/runs.js';
import { BodyError } from '../inputs/body.js';
import { refusalStatus } from './refusal-status.js';
import { cappedDetail } from '../../domain/quoted.js';

// Maps a facade answer onto the response: refusals become a status from the one table, with a
// detail (and the allowed actions where that is the reason).
export const reply = <T>(ctx: Context, o: Outcome<T>): void => {
  if (isLeft(o)) {
    ctx.status = refusalStatus(o.left);
    // capped: the last net under any message that quotes input
    const detail = cappedDetail(refusalText(o.left));
    ctx.body = o.left._tag === 'NotAllowed' ? { detail, allowedActions: o.left.allowed } : { detail };
    return;
  }
  ctx.status = 200;
  ctx.body = o.right;
};

/** Who sent a request over HTTP: a person, named by the svc-setting-source header when given. */
export const personFrom = (ctx: Context): Actor => {
  const name = ctx.get('svc-setting-source').trim().slice(0, 80);
  return name ? { kind: 'person', name } : { kind: 'person' };
};

const INT = /^\d{1,15}$/;

export const intParam = (ctx: Context, name: string, min: number, max: number, fallback: number | undefined): number | undefined => {
  const raw = ctx.query[name];
  if (raw === undefined) return fallback;
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v || !INT.test(v) || Number(v) < min || Number(v) > max) throw new BodyError(400, `${name} must be a whole number from ${min} to ${max}`);
  return Number(v);
};
