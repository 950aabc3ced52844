import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { BodyError } from '../inputs/body.js';
import { describeErrors as describeInputErrors } from '../inputs/describe.js';
import { quoted } from '../../domain/quoted.js';

// Turns io-ts errors into one sentence a person can act on: where, and what was expected.

// Keys under a union or an intersection name a member, not a field: they are left out of the path.
const pathOf = (e: t.ValidationError): string =>
  e.context
    .filter((c, i) => c.key !== '' && !(i > 0 && (e.context[i - 1]!.type instanceof t.UnionType || e.context[i - 1]!.type instanceof t.IntersectionType)))
    .map((c) => quoted(c.key))
    .join('.');

const expected = (e: t.ValidationError): string => e.context[e.context.length - 1]?.type.name ?? 'a valid value';

export const describeErrors = (errors: t.Errors): string => {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const e of errors) {
    const where = pathOf(e) || 'body';
    if (seen.has(where)) continue;
    seen.add(where);
    parts.push(e.message ? `${where}: ${e.message}` : e.value === undefined ? `${where} is required` : `${where} must be ${expected(e)}`);
    if (parts.length === 3) break;
  }
  return parts.join('; ');
};

export const decodeOr400 = <A>(codec: t.Decoder<unknown, A>, value: unknown): A => {
  const r = codec.decode(value);
  if (isLeft(r)) throw new BodyError(400, describeErrors(r.left));
  return r.right;
};

/** an action's body (lib/inputs/): refused in the very words MCP's tool error uses for the same input */
export const decodeInput = <A>(codec: t.Decoder<unknown, A>, value: unknown): A => {
  const r = codec.decode(value);
  if (isLeft(r)) throw new BodyError(400, describeInputErrors(r.left));
  return r.right;
};

// names from the input, each shortened, at most five of them
const names = (keys: readonly string[]): string => keys.slice(0, 5).map(quoted).join(', ') + (keys.length > 5 ? ` (and ${keys.length - 5} more)` : '');

/** a query parameter the route does not take is refused by name, like an unknown body field */
export const refuseUnknownQuery = (query: Readonly<Record<string, unknown>>, known: readonly string[]): void => {
  const unknown = Object.keys(query).filter((k) => !known.includes(k));
  if (unknown.length) throw new BodyError(400, `unknown query parameter ${names(unknown)}; known: ${known.join(', ') || 'none'}`);
};

/** Fields a body may not carry: a typo in a field name is an error, not silently ignored. */
export const refuseUnknownFields = (value: unknown, known: readonly string[]): void => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length) throw new BodyError(400, `unknown field ${names(unknown.map((k) => JSON.stringify(k)))}; ${known.length ? `known fields: ${known.join(', ')}` : 'this request takes no fields'}`);
};
