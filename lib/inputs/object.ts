import * as t from 'io-ts';
import { quoted } from '../../domain/quoted.js';

// The input of one action: required props, optional props, rules across fields, and nothing else.
// An unknown key fails the decode (an agent that writes `runId` for `run` learns at once rather
// than being ignored). HTTP reads the action's fields from the body; MCP adds `run` (extend).

export type ArgsOf<R extends t.Props, O extends t.Props> = { readonly [K in keyof R]: t.TypeOf<R[K]> } & {
  readonly [K in keyof O]?: t.TypeOf<O[K]>;
};

/** a rule across fields: the refusal's text, or null when the input keeps it */
export type Rule<A> = (a: A) => string | null;

/** what an unknown key is called in the message: a tool's argument or a body's field */
export type Noun = 'argument' | 'field';

export class ArgsType<R extends t.Props, O extends t.Props> extends t.Type<ArgsOf<R, O>, ArgsOf<R, O>, unknown> {
  readonly _tag = 'ArgsType' as const;
  constructor(readonly required: R, readonly optional: O, readonly rule: Rule<ArgsOf<R, O>> = () => null, readonly noun: Noun = 'argument') {
    const req = t.type(required);
    const opt = t.partial(optional);
    const shape = t.intersection([req, opt]);
    super(
      noun === 'argument' ? 'arguments' : 'a JSON object',
      (u): u is ArgsOf<R, O> => shape.is(u) && unknownKeys(u, required, optional).length === 0 && rule(u as ArgsOf<R, O>) === null,
      (u, c) => {
        if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, `${noun === 'argument' ? 'arguments' : 'the body'} must be a JSON object (got ${kindOf(u)})`);
        const extra = unknownKeys(u, required, optional);
        if (extra.length > 0) return t.failure(u, c, `unknown ${noun}${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).map(quoted).join(', ')}`);
        // validated part by part (not through the intersection) so error paths read "pageSize", not "1.pageSize"
        const a = req.validate(u, c);
        const b = opt.validate(u, c);
        if (a._tag === 'Left' || b._tag === 'Left') return t.failures([...(a._tag === 'Left' ? a.left : []), ...(b._tag === 'Left' ? b.left : [])]);
        const value = { ...b.right, ...a.right } as ArgsOf<R, O>;
        const problem = rule(value);
        return problem === null ? t.success(value) : t.failure(u, c, problem);
      },
      t.identity,
    );
  }
}

const kindOf = (u: unknown): string => (u === null ? 'null' : Array.isArray(u) ? 'an array' : `a ${typeof u}`);
const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const unknownKeys = (u: object, r: t.Props, o: t.Props): string[] => Object.keys(u).filter((k) => !own(r, k) && !own(o, k));

/** keys whose codec is a DefaultType are filled in by decoding, so they need not be sent */
export const args = <R extends t.Props, O extends t.Props = {}>(required: R, optional?: O): ArgsType<R, O> =>
  new ArgsType(required, (optional ?? {}) as O);

/** an action's fields as one door reads them (a body: unknown keys are "fields") */
export const fields = <R extends t.Props, O extends t.Props = {}>(required: R, optional: O, rule?: Rule<ArgsOf<R, O>>): ArgsType<R, O> =>
  new ArgsType(required, optional, rule, 'field');

type Without<O extends t.Props, K extends PropertyKey> = { [P in Exclude<keyof O, K>]: O[P] };

/**
 * The same action with more fields, and its rule kept: how MCP adds `run` to an action's fields, and
 * how a door makes an optional field required (a key given in `required` leaves `optional`).
 */
export const extend = <R extends t.Props, O extends t.Props, R2 extends t.Props, O2 extends t.Props = {}>(
  base: ArgsType<R, O>, required: R2, optional?: O2, noun: Noun = 'argument',
): ArgsType<R & R2, Without<O, keyof R2> & O2> => {
  const opt = Object.fromEntries(Object.entries(base.optional).filter(([k]) => !own(required, k))) as Without<O, keyof R2>;
  return new ArgsType({ ...base.required, ...required }, { ...opt, ...(optional ?? ({} as O2)) }, base.rule as Rule<unknown>, noun);
};

/** a further rule on top of an action's own (a door's own fields, e.g. HTTP's legacy `ticket`) */
export const withRule = <R extends t.Props, O extends t.Props>(base: ArgsType<R, O>, rule: Rule<ArgsOf<R, O>>): ArgsType<R, O> =>
  new ArgsType(base.required, base.optional, (a) => base.rule(a) ?? rule(a), base.noun);
