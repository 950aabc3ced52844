import * as t from 'io-ts';

// io-ts types that carry what the JSON Schema converter needs to see (ranges, defaults, closed
// objects); plain refinements hide their predicate, so these keep their limits as fields.

export class IntRangeType extends t.Type<number, number, unknown> {
  readonly _tag = 'IntRangeType' as const;
  /** fromText: digits in a string are read as the number too (a URL query has only strings) */
  constructor(readonly min: number, readonly max: number, name?: string, readonly fromText = false) {
    super(
      name ?? `an integer from ${min} to ${max}`,
      (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
      (u, c) => {
        const n = fromText && typeof u === 'string' && /^\d{1,16}$/.test(u) ? Number(u) : u;
        return this.is(n) ? t.success(n) : t.failure(u, c);
      },
      t.identity,
    );
  }
}
export const intRange = (min: number, max: number, name?: string): IntRangeType => new IntRangeType(min, max, name);
/** an integer given as a JSON number (MCP) or as digits (an HTTP query), decoded by one codec */
export const countFromQuery = (min: number, max: number, name?: string): IntRangeType => new IntRangeType(min, max, name, true);

/** a string with at least one non-space character, at most maxLength long, optionally one line */
export class TextType extends t.Type<string, string, unknown> {
  readonly _tag = 'TextType' as const;
  constructor(readonly maxLength: number | undefined, readonly oneLine: boolean) {
    super(
      describeText(maxLength, oneLine),
      (u): u is string => typeof u === 'string' && /\S/.test(u) && (maxLength === undefined || fits(u, maxLength)) && !(oneLine && /[\r\n]/.test(u)),
      (u, c) => (this.is(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    );
  }
}
// Characters (code points), as JSON Schema's maxLength counts them: an emoji is one of the 80. A
// string longer than twice the limit in UTF-16 units cannot fit, so a huge one is not split up.
const fits = (u: string, max: number): boolean => u.length <= max || (u.length <= 2 * max && [...u].length <= max);
const describeText = (max: number | undefined, oneLine: boolean): string =>
  `a non-blank ${oneLine ? 'one-line ' : ''}string${max === undefined ? '' : ` of at most ${max} characters`}`;
export const nonBlank = (maxLength?: number): TextType => new TextType(maxLength, false);
export const oneLine = (maxLength: number): TextType => new TextType(maxLength, true);

/** a missing value decodes as the default; used inside args() so the decoded field is never undefined */
export class DefaultType<A> extends t.Type<A, A, unknown> {
  readonly _tag = 'DefaultType' as const;
  constructor(readonly inner: t.Type<A, A, unknown>, readonly defaultValue: A) {
    super(
      inner.name,
      inner.is,
      (u, c) => (u === undefined ? t.success(defaultValue) : inner.validate(u, c)),
      t.identity,
    );
  }
}
export const withDefault = <A>(inner: t.Type<A, A, unknown>, value: A): DefaultType<A> => new DefaultType(inner, value);

type LiteralValue = string;
export const oneOf = <T extends readonly [LiteralValue, LiteralValue, ...LiteralValue[]]>(xs: T) =>
  t.union(xs.map((x) => t.literal(x)) as unknown as [t.LiteralC<T[number]>, t.LiteralC<T[number]>, ...t.LiteralC<T[number]>[]], `one of ${xs.join(', ')}`);

/** a budget in US dollars: a finite number above zero (a budget of 0 or less could never be spent) */
export class UsdBudgetType extends t.Type<number, number, unknown> {
  readonly _tag = 'UsdBudgetType' as const;
  readonly max = 1_000_000;
  constructor() {
    super(
      'a number of US dollars above 0 (at most 1000000)',
      (u): u is number => typeof u === 'number' && Number.isFinite(u) && u > 0 && u <= 1_000_000,
      (u, c) => (this.is(u) ? t.success(u) : t.failure(u, c)),
      t.identity,
    );
  }
}
export const usdBudget = (): UsdBudgetType => new UsdBudgetType();
