import type { Context } from 'koa';

// An answer many responses share (one append waking 1,000 long-polls hands each the same object)
// is encoded once: the same object gives the same bytes. Held weakly, so the bytes go when the
// answer does.

const encoded = new WeakMap<object, Buffer>();

export const sharedJson = (o: object): Buffer => {
  let bytes = encoded.get(o);
  if (!bytes) encoded.set(o, (bytes = Buffer.from(JSON.stringify(o))));
  return bytes;
};

/** 200 with `o` as JSON, encoded at most once however many responses carry it. */
export const replyShared = (ctx: Context, o: object): void => {
  ctx.status = 200;
  // The header as it is, not `ctx.type`: that looks the type up per response, a few µs each
  // when one append answers a thousand.
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = sharedJson(o);
};

const JSON_TYPE = 'application/json; charset=utf-8';
