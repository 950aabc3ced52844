import * as t from 'io-ts';
import { quoted } from './quoted.js';

// An object codec (or a union of them) that refuses keys it does not know, where io-ts's own
// t.strict / t.exact drop them silently: {"_tag":"RunCap","cap":…,"zzUnknown":1} is refused, naming
// zzUnknown, at the HTTP and MCP door alike.

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// The keys the shape that decoded `u` declares; for a union, the member that decodes it.
const declared = (type: t.Mixed, u: unknown): readonly string[] | null => {
  if (type instanceof ClosedType || type instanceof t.ExactType || type instanceof t.ReadonlyType) return declared(type.type as t.Mixed, u);
  if (type instanceof t.InterfaceType || type instanceof t.PartialType) return Object.keys(type.props as t.Props);
  if (type instanceof t.IntersectionType) {
    const parts = (type.types as t.Mixed[]).map((m) => declared(m, u));
    return parts.every((p) => p !== null) ? parts.flat() : null;
  }
  if (type instanceof t.UnionType) {
    const member = (type.types as t.Mixed[]).find((m) => m.decode(u)._tag === 'Right');
    return member ? declared(member, u) : null;
  }
  return null;
};

const unknownKeys = (type: t.Mixed, u: unknown): string[] => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return [];
  const keys = declared(type, u);
  return keys === null ? [] : Object.keys(u).filter((k) => !keys.includes(k) || !own(u, k));
};

export class ClosedType<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  readonly _tag = 'ClosedType' as const;
  constructor(readonly type: C) {
    super(
      type.name,
      (u): u is t.TypeOf<C> => type.is(u) && unknownKeys(type, u).length === 0,
      (u, c) => {
        // the inner codec stands in the context in our place, so error paths and union
        // explanations read as they would without the wrapper
        const last = c[c.length - 1];
        const r = type.validate(u, last ? [...c.slice(0, -1), { ...last, type }] : c) as t.Validation<t.TypeOf<C>>;
        if (r._tag === 'Left') return r;
        const extra = unknownKeys(type, u);
        return extra.length ? t.failure(u, c, `unknown field${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).map(quoted).join(', ')}`) : r;
      },
      type.encode,
    );
  }
}

export const closed = <C extends t.Mixed>(type: C): ClosedType<C> => new ClosedType(type);
