import * as t from 'io-ts';

// Small io-ts helpers shared by the event codecs.

export const withOptional = <R extends t.Props, O extends t.Props>(required: R, optional: O) =>
  t.intersection([t.type(required), t.partial(optional)]);

export const oneOf = <T extends readonly [string, string, ...string[]]>(xs: T) =>
  t.union(xs.map((x) => t.literal(x)) as unknown as [t.LiteralC<T[number]>, t.LiteralC<T[number]>, ...t.LiteralC<T[number]>[]]);

export const ActorCodec = withOptional({ kind: oneOf(['person', 'agent', 'supervisor', 'engine'] as const) }, { name: t.string });
