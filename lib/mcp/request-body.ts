import type { ParameterizedContext } from 'koa';
import { BodyError, readJson } from '../inputs/body.js';

// The body of a POST /mcp, read by the one body reader every route uses (size, media type and a
// Content-Encoding it cannot undo answered alike), then handed to the SDK's transport parsed.

type Ctx = ParameterizedContext;

/** the SDK transport's own limit for a message (MAXIMUM_MESSAGE_SIZE), kept */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** the body, or null once a JSON-RPC error has been answered for it */
export const readRpcBody = async (ctx: Ctx): Promise<unknown> => {
  try {
    return await readJson(ctx as unknown as Parameters<typeof readJson>[0], MAX_MESSAGE_BYTES, {}, { nul: 'pass' });
  } catch (e) {
    if (!(e instanceof BodyError)) throw e;
    // in JSON-RPC's words (-32700: not JSON), with the detail every other route gives
    const code = e.status === 400 && /^malformed JSON/.test(e.message) ? -32700 : -32600;
    ctx.status = e.status;
    ctx.body = { jsonrpc: '2.0', error: { code, message: e.message }, id: null, detail: e.message };
    return null;
  }
};

export interface BadCall { readonly id: string | number; readonly name: string; readonly args: unknown }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * A tools/call whose `arguments` is not an object (null, [1], "x"). The SDK's own schema check would
 * throw on it and answer -32603 Internal error; we answer it as the tool's argument error instead.
 */
export const callWithBadArguments = (body: unknown): BadCall | null => {
  if (!isObject(body) || body.method !== 'tools/call' || !isObject(body.params)) return null;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string' || !('arguments' in body.params) || isObject(args)) return null;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return null;
  return { id: body.id, name, args };
};
