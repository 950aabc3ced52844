import * as t from 'io-ts';

// io-ts errors as one line an agent can act on: "pageSize: must be an integer from 1 to 200 (got 0)".

// Union and intersection members show up as keys "0", "1"... in the context; they are not part of
// the argument's path, array indexes are.
const structural = (type: t.Decoder<unknown, unknown>): boolean => type instanceof t.UnionType || type instanceof t.IntersectionType;

const pathOf = (e: t.ValidationError): string =>
  e.context
    .filter((c, i) => c.key !== '' && !(i > 0 && structural(e.context[i - 1].type)))
    .map((c) => c.key)
    .join('.');

const shown = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const one = (e: t.ValidationError): string => {
  const path = pathOf(e);
  const expected = e.context[e.context.length - 1]?.type.name ?? 'a valid value';
  const what = e.message ?? (e.value === undefined ? `required: ${expected}` : `must be ${expected} (got ${shown(e.value)})`);
  return path ? `${path}: ${what}` : what;
};

export const describeErrors = (errors: t.Errors): string => {
  // a union reports one error per branch; the first few are enough and keep the text short
  const lines = [...new Set(errors.map(one))];
  return lines.slice(0, 3).join('; ') + (lines.length > 3 ? ` (and ${lines.length - 3} more)` : '');
};
