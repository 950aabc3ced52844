import * as t from 'io-ts';
import { ArgsType } from '../inputs/object.js';
import { DefaultType, IntRangeType, TextType, UsdBudgetType } from '../inputs/kinds.js';
import { ClosedType } from '../../domain/closed.js';
import { THREAD_CURSOR_NAME } from './args/common.js';
import { BRANCH, BRANCH_NAME } from '../inputs/ship.js';
import { DAY_NAME, DAY_PATTERN } from '../inputs/usage.js';

// Derives a tool's advertised inputSchema from the io-ts codec that decodes its arguments, so the
// schema a client sees and the check the server applies cannot drift apart. Covers the io-ts
// kinds our codecs use; anything else throws at startup (and in the schema test) rather than
// advertising a lie.

export type JsonSchema = { readonly [k: string]: unknown };

// Custom types elsewhere in the tree (settings) that have no structure to inspect.
const NAMED: Readonly<Record<string, JsonSchema>> = {
  HttpUrl: { type: 'string', description: 'an http(s) URL' },
  [THREAD_CURSOR_NAME]: { type: 'string', pattern: '^[1-9]\\d{0,14}$' },
  // lib/inputs/ship.ts: the same expression the codec tests (ECMAScript regex, as JSON Schema's)
  [BRANCH_NAME]: { type: 'string', pattern: BRANCH.source },
  // lib/inputs/usage.ts: JSON Schema's full-date (RFC 3339) is a real calendar day, as the codec's
  [DAY_NAME]: { type: 'string', format: 'date', pattern: DAY_PATTERN },
};

type Descriptions = Readonly<Record<string, string>>;

const literalsOf = (types: readonly t.Mixed[]): (string | number | boolean)[] | null =>
  types.every((x) => x instanceof t.LiteralType) ? types.map((x) => (x as t.LiteralType<string | number | boolean>).value) : null;

const enumSchema = (values: readonly (string | number | boolean)[]): JsonSchema => {
  const kinds = [...new Set(values.map((v) => typeof v))];
  return kinds.length === 1 ? { type: kinds[0], enum: values } : { enum: values };
};

const objectSchema = (req: t.Props, opt: t.Props, closed: boolean, notes: Descriptions = {}): JsonSchema => {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [k, v] of Object.entries(req)) {
    properties[k] = describe(toJsonSchema(v), notes[k]);
    if (!(v instanceof DefaultType)) required.push(k);
  }
  for (const [k, v] of Object.entries(opt)) properties[k] = describe(toJsonSchema(v), notes[k]);
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...(closed ? { additionalProperties: false } : {}) };
};

const describe = (s: JsonSchema, text: string | undefined): JsonSchema => (text ? { ...s, description: text } : s);

const mergeObjects = (parts: readonly JsonSchema[]): JsonSchema => {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of parts) {
    if (p.type !== 'object') throw new Error('intersection of non-objects has no JSON Schema here');
    Object.assign(properties, p.properties);
    required.push(...((p.required as string[] | undefined) ?? []));
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
};

const closeObject = (s: JsonSchema): JsonSchema => (s.type === 'object' ? { ...s, additionalProperties: false } : s);

const refinement = (x: t.RefinementType<t.Mixed>): JsonSchema => {
  if (NAMED[x.name]) return NAMED[x.name]!;
  const inner = toJsonSchema(x.type);
  // brands named *Int* (e.g. t.Int, settings' IntInRange) hold integers; their bounds are opaque
  return inner.type === 'number' && /int/i.test(x.name) ? { ...inner, type: 'integer' } : inner;
};

/** JSON Schema (draft 2020-12 subset) of an io-ts type; `notes` describe top-level properties */
export const toJsonSchema = (type: t.Mixed, notes?: Descriptions): JsonSchema => {
  if (type instanceof ArgsType) return objectSchema(type.required, type.optional, true, notes);
  // its objects are t.strict / t.exact, advertised closed already
  if (type instanceof ClosedType) return toJsonSchema(type.type, notes);
  if (type instanceof DefaultType) return { ...toJsonSchema(type.inner), default: type.defaultValue };
  if (type instanceof IntRangeType) return { type: 'integer', minimum: type.min, maximum: type.max };
  if (type instanceof TextType) return textSchema(type);
  if (type instanceof UsdBudgetType) return { type: 'number', exclusiveMinimum: 0, maximum: type.max };
  if (type instanceof t.StringType) return { type: 'string' };
  if (type instanceof t.NumberType) return { type: 'number' };
  if (type instanceof t.BooleanType) return { type: 'boolean' };
  if (type instanceof t.NullType) return { type: 'null' };
  if (type instanceof t.LiteralType) return enumSchema([type.value]);
  if (type instanceof t.KeyofType) return enumSchema(Object.keys(type.keys));
  if (type instanceof t.UnionType) return unionSchema(type.types);
  if (type instanceof t.ArrayType || type instanceof t.ReadonlyArrayType) return { type: 'array', items: toJsonSchema(type.type) };
  if (type instanceof t.InterfaceType) return objectSchema(type.props, {}, false, notes);
  if (type instanceof t.PartialType) return objectSchema({}, type.props, false, notes);
  if (type instanceof t.ExactType) return closeObject(toJsonSchema(type.type, notes));
  if (type instanceof t.ReadonlyType) return toJsonSchema(type.type, notes);
  if (type instanceof t.IntersectionType) return mergeObjects(type.types.map((x: t.Mixed) => toJsonSchema(x, notes)));
  if (type instanceof t.DictionaryType) return dictionarySchema(type);
  if (type instanceof t.RefinementType) return refinement(type);
  const named = NAMED[type.name];
  if (named) return named;
  throw new Error(`no JSON Schema for io-ts type ${type.name}`);
};

const unionSchema = (types: readonly t.Mixed[]): JsonSchema => {
  const lits = literalsOf(types);
  return lits ? enumSchema(lits) : { anyOf: types.map((x) => toJsonSchema(x)) };
};

const dictionarySchema = (type: t.DictionaryType<t.Mixed, t.Mixed>): JsonSchema => {
  if (!(type.domain instanceof t.StringType)) throw new Error(`records keyed by ${type.domain.name} have no JSON Schema here`);
  return { type: 'object', additionalProperties: toJsonSchema(type.codomain) };
};

const textSchema = (type: TextType): JsonSchema => ({
  type: 'string',
  minLength: 1,
  ...(type.maxLength === undefined ? {} : { maxLength: type.maxLength }),
  pattern: type.oneLine ? '^[^\\r\\n]*\\S[^\\r\\n]*$' : '\\S',
});
