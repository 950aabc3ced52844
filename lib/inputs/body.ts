import type { Context } from 'koa';
import parse from 'co-body';
import { nulPath, nulRefusal } from './nul.js';
import { quoted } from '../../domain/quoted.js';
import { deeperThan, depthText, MAX_JSON_DEPTH } from './depth.js';

// Reads a JSON body through co-body (raw-body underneath) with a size limit. Every way it can go
// wrong is a 4xx with a detail: a body that is too large, not JSON, not declared as JSON, or in an
// encoding we cannot undo.

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyError extends Error {
  constructor(readonly status: number, detail: string) {
    super(detail);
  }
}

interface ReadFailure { readonly status?: number; readonly type?: string; readonly message: string }

const failure = (e: unknown): ReadFailure | null =>
  typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? (e as ReadFailure) : null;

const refusal = (e: ReadFailure, limit: number): BodyError => {
  if (e.type === 'entity.too.large') return new BodyError(413, `request body is larger than ${limit} bytes`);
  if (e instanceof SyntaxError) return new BodyError(400, `malformed JSON: ${quoted(e.message)} (the body is not valid JSON)`);
  if (e.status === 415) return new BodyError(415, `send the body as application/json without a content-encoding it cannot read (${quoted(e.message)})`);
  if (e.status !== undefined && e.status >= 400 && e.status < 500) return new BodyError(400, `the request body could not be read: ${quoted(e.message)}`);
  return new BodyError(400, 'the request body could not be read');
};

/**
 * The one reader of request bodies: every route that takes a body reads it here, so each answers
 * the same to a body too large, not JSON, or in a Content-Encoding it cannot undo (415). An empty
 * body reads as `empty` ({} unless the route says otherwise). A value nested deeper than
 * `maxDepth` is refused here, before any decoder walks it, and so is a NUL byte anywhere in it
 * (lib/inputs/nul.ts; `nul: 'pass'` for MCP, whose tools refuse it as a tool error, lib/mcp/tool.ts).
 */
export const readJson = async (ctx: Context, limit = MAX_BODY_BYTES, empty: unknown = {}, maxDepth = MAX_JSON_DEPTH, o: { readonly nul?: 'refuse' | 'pass' } = {}): Promise<unknown> => {
  const value = await readValue(ctx, limit, empty);
  const deep = deeperThan(value, maxDepth);
  if (deep) throw new BodyError(400, depthText(deep, maxDepth));
  const nul = o.nul === 'pass' ? null : nulPath(value);
  if (nul !== null) throw new BodyError(400, nulRefusal(nul));
  return value;
};

const readValue = async (ctx: Context, limit: number, empty: unknown): Promise<unknown> => {
  const type = ctx.get('content-type');
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new BodyError(415, `send the body as application/json (got ${type.slice(0, 80)})`);
  let value: unknown;
  try {
    // strict: false lets any JSON value through, so the route's decoder names what it wanted
    // ("the body must be a JSON object") instead of co-body's generic refusal.
    value = await parse.json(ctx.req, { limit, strict: false });
  } catch (e) {
    // raw-body stops reading at the limit; the rest is read and dropped so the client, still
    // sending, gets the 413 instead of a hang-up.
    ctx.req.resume();
    const f = failure(e);
    throw f ? refusal(f, limit) : new BodyError(400, 'the request body could not be read');
  }
  return value === '' ? empty : value;
};
