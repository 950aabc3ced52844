import * as t from 'io-ts';

// The arguments object of a tool: required props, optional props, and nothing else. An unknown key
// fails the decode (an agent that writes `runId` for `run` learns at once rather than being ignored).

export type ArgsOf<R extends t.Props, O extends t.Props> = { readonly [K in keyof R]: t.TypeOf<R[K]> } & {
  readonly [K in keyof O]?: t.TypeOf<O[K]>;
};

export class ArgsType<R extends t.Props, O extends t.Props> extends t.Type<ArgsOf<R, O>, ArgsOf<R, O>, unknown> {
  readonly _tag = 'ArgsType' as const;
  constructor(readonly required: R, readonly optional: O) {
    const req = t.type(required);
    const opt = t.partial(optional);
    const shape = t.intersection([req, opt]);
    super(
      'arguments',
      (u): u is ArgsOf<R, O> => shape.is(u) && unknownKeys(u, required, optional).length === 0,
      (u, c) => {
        if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, 'arguments must be an object');
        const extra = unknownKeys(u, required, optional);
        if (extra.length > 0) return t.failure(u, c, `unknown argument${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}`);
        // validated part by part (not through the intersection) so error paths read "pageSize", not "1.pageSize"
        const a = req.validate(u, c);
        const b = opt.validate(u, c);
        if (a._tag === 'Left' || b._tag === 'Left') return t.failures([...(a._tag === 'Left' ? a.left : []), ...(b._tag === 'Left' ? b.left : [])]);
        return t.success({ ...b.right, ...a.right } as ArgsOf<R, O>);
      },
      t.identity,
    );
  }
}

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const unknownKeys = (u: object, r: t.Props, o: t.Props): string[] => Object.keys(u).filter((k) => !own(r, k) && !own(o, k));

/** keys whose codec is a DefaultType are filled in by decoding, so they need not be sent */
export const args = <R extends t.Props, O extends t.Props = {}>(required: R, optional?: O): ArgsType<R, O> =>
  new ArgsType(required, (optional ?? {}) as O);
