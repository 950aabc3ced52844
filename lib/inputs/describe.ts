import * as t from 'io-ts';
import { quoted } from '../../domain/quoted.js';

// io-ts errors as one line an agent can act on: "pageSize: must be an integer from 1 to 200 (got 0)".
// A union reports one error per branch; we keep the branch that got furthest (e.g. the setting
// whose _tag matched) or, when none got past the first level, say what the union accepts.

type Errs = readonly t.ValidationError[];

// Union and intersection members show up as keys "0", "1"... in the context; they are not part of
// the argument's path, array indexes are.
const structural = (type: t.Decoder<unknown, unknown>): boolean => type instanceof t.UnionType || type instanceof t.IntersectionType;

// a key of a record is input too ({"inputs": {"<900 KB name>": 1}}): each is shortened
const pathOf = (context: t.Context): string =>
  context
    .filter((c, i) => c.key !== '' && !(i > 0 && structural(context[i - 1].type)))
    .map((c) => quoted(c.key))
    .join('.');

const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

const PLAIN: Readonly<Record<string, string>> = {
  string: 'a string', number: 'a number', boolean: 'true or false', 'Array<string>': 'an array of strings',
  IntInRange: 'an integer in the allowed range', Int: 'an integer',
};

const tagOf = (x: t.Mixed): string | undefined => {
  const inner = x instanceof t.ExactType ? x.type : x;
  const tag = inner instanceof t.InterfaceType ? (inner.props as t.Props)._tag : undefined;
  return tag instanceof t.LiteralType ? String(tag.value) : undefined;
};

// A tagged union names its tags; a long union of other shapes would drown the message.
const expectedOf = (type: t.Decoder<unknown, unknown>): string => {
  if (!(type instanceof t.UnionType) || type.name.length <= 80) return PLAIN[type.name] ?? type.name;
  const types = type.types as readonly t.Mixed[];
  if (types.every((x) => x instanceof t.LiteralType)) return type.name;
  const tags = types.map(tagOf);
  return tags.every((x) => x !== undefined) ? `an object whose _tag is one of ${tags.join(', ')}` : `one of ${types.length} accepted shapes`;
};

const line = (context: t.Context, value: unknown, message?: string): string => {
  const path = pathOf(context);
  const expected = expectedOf(context[context.length - 1]?.type ?? t.unknown);
  const what = message ?? (value === undefined ? `is required (${expected})` : `must be ${expected} (got ${shown(value)})`);
  return path ? `${path}: ${what}` : what;
};

const firstUnion = (e: t.ValidationError, from: number): number => e.context.findIndex((c, i) => i >= from && c.type instanceof t.UnionType);

const explain = (errors: Errs, from: number): string[] => {
  const out: string[] = [];
  const unions = new Map<string, t.ValidationError[]>();
  for (const e of errors) {
    const u = firstUnion(e, from);
    if (u === -1) out.push(line(e.context, e.value, e.message));
    else {
      const key = `${u}:${pathOf(e.context.slice(0, u + 1))}`;
      unions.set(key, [...(unions.get(key) ?? []), e]);
    }
  }
  for (const [key, group] of unions) out.push(...explainUnion(group, Number(key.split(':')[0])));
  return out;
};

const explainUnion = (group: t.ValidationError[], u: number): string[] => {
  const deepest = Math.max(...group.map((e) => e.context.length));
  if (deepest <= u + 2) return [line(group[0].context.slice(0, u + 1), group[0].context[u].actual)];
  const branch = group.find((e) => e.context.length === deepest)!.context[u + 1].key;
  return explain(group.filter((e) => e.context[u + 1]?.key === branch), u + 1);
};

export const describeErrors = (errors: t.Errors): string => {
  const lines = [...new Set(explain(errors, 0))];
  return lines.slice(0, 3).join('; ') + (lines.length > 3 ? ` (and ${lines.length - 3} more)` : '');
};
