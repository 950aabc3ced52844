import type { ParameterizedContext } from 'koa';
import { BodyError, readJson } from '../inputs/body.js';
import { quoted } from '../../domain/quoted.js';
import { deeperThan, depthText, MAX_JSON_DEPTH } from '../inputs/depth.js';

// The body of a POST /mcp, read by the one body reader every route uses (size, media type and a
// Content-Encoding it cannot undo answered alike), then handed to the SDK's transport parsed.

type Ctx = ParameterizedContext;

/** the SDK transport's own limit for a message (MAXIMUM_MESSAGE_SIZE), kept */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

// {params: {arguments: ...}}: a tool's arguments get the depth every HTTP body gets
const ENVELOPE = 2;
const inArguments = (path: readonly string[]): boolean => path[0] === 'params' && path[1] === 'arguments';

/**
 * The body, or null once a JSON-RPC error has been answered for it. Arguments nested too deep
 * pass, to be answered as the tool's argument error (callWithBadArguments); anything else nested
 * too deep is refused as an HTTP body is.
 */
export const readRpcBody = async (ctx: Ctx): Promise<unknown> => {
  try {
    const body = await readJson(ctx as unknown as Parameters<typeof readJson>[0], MAX_MESSAGE_BYTES, {}, Infinity, { nul: 'pass' });
    const deep = deeperThan(body, MAX_JSON_DEPTH + ENVELOPE);
    if (deep && !(inArguments(deep) && callWithBadArguments(body))) throw new BodyError(400, depthText(deep, MAX_JSON_DEPTH + ENVELOPE));
    return body;
  } catch (e) {
    if (!(e instanceof BodyError)) throw e;
    // in JSON-RPC's words (-32700: not JSON), with the detail every other route gives
    const code = e.status === 400 && /^malformed JSON/.test(e.message) ? -32700 : -32600;
    ctx.status = e.status;
    ctx.body = { jsonrpc: '2.0', error: { code, message: e.message }, id: null, detail: e.message };
    return null;
  }
};

export interface BadCall {
  readonly id: string | number;
  readonly name: string;
  readonly args: unknown;
  /** set when the arguments are an object nested too deep: the tool's error says this */
  readonly problem?: string;
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * A tools/call whose `arguments` is not an object (null, [1], "x"), or nests too deep to decode.
 * The SDK's own schema check would throw on the first and answer -32603 Internal error, a decoder
 * would overflow its stack on the second; we answer either as the tool's argument error instead.
 */
export const callWithBadArguments = (body: unknown): BadCall | null => {
  if (!isObject(body) || body.method !== 'tools/call' || !isObject(body.params)) return null;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string' || !('arguments' in body.params)) return null;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return null;
  const deep = deeperThan(args, MAX_JSON_DEPTH);
  if (deep) return { id: body.id, name, args, problem: depthText(deep) };
  return isObject(args) ? null : { id: body.id, name, args };
};

/** the tool error for arguments nested too deep, in the words a decoder's refusal uses */
export const tooDeepText = (call: BadCall): string => `invalid arguments for ${quoted(call.name)}: ${call.problem ?? ''}`;
