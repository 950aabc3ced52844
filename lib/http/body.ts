import type { Context } from 'koa';

// Reads a JSON body with a size limit. Every way it can go wrong is a 4xx with a detail: a body
// that is too large, not JSON, or not declared as JSON.

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyError extends Error {
  constructor(readonly status: number, detail: string) {
    super(detail);
  }
}

const readRaw = (ctx: Context, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > limit) return reject(new BodyError(413, `request body is larger than ${limit} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped, not kept: destroying the request would hang up
    // on the client before it could read the 413.
    ctx.req.on('data', (c: Buffer) => {
      if (size > limit) return;
      size += c.length;
      if (size > limit) {
        chunks.length = 0;
        reject(new BodyError(413, `request body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    ctx.req.on('end', () => resolve(Buffer.concat(chunks)));
    ctx.req.on('error', () => reject(new BodyError(400, 'the request body could not be read')));
  });

export const readJson = async (ctx: Context, limit = MAX_BODY_BYTES): Promise<unknown> => {
  const type = ctx.get('content-type');
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new BodyError(415, `send the body as application/json (got ${type.slice(0, 80)})`);
  const raw = await readRaw(ctx, limit);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new BodyError(400, `malformed JSON: ${(err as Error).message}`);
  }
};
