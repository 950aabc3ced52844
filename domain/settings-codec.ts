import * as t from 'io-ts';
import { HARNESSES } from './workflow.js';
import { NEEDS_KINDS, TOOL_GROUPS } from './settings.js';
import { closed } from './closed.js';
import { argvProblem } from './argv.js';

// Decodes a settings change at the HTTP and MCP boundaries. Checks that the Settings page applies
// (ranges, URLs) live here too, so change_setting and the page refuse the same things.

const literals = <T extends readonly [string, string, ...string[]]>(xs: T) =>
  t.union(xs.map((x) => t.literal(x)) as unknown as [t.LiteralC<T[number]>, t.LiteralC<T[number]>, ...t.LiteralC<T[number]>[]]);

interface IntInRangeBrand { readonly IntInRange: unique symbol }
const intIn = (min: number, max: number) =>
  t.brand(t.number, (n): n is t.Branded<number, IntInRangeBrand> => Number.isInteger(n) && n >= min && n <= max, 'IntInRange');

const httpUrl = new t.Type<string, string, unknown>(
  'HttpUrl',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a URL');
    try {
      const url = new URL(u);
      return url.protocol === 'http:' || url.protocol === 'https:' ? t.success(u) : t.failure(u, c, 'must be an http(s) URL');
    } catch {
      return t.failure(u, c, 'must be a URL');
    }
  },
  t.identity,
);

// A refinement that says why it refused: still a RefinementType, so the MCP tool's JSON Schema
// shows what it refines (an array of strings, an object).
const refined = <C extends t.Mixed>(codec: C, problem: (a: t.TypeOf<C>) => string | null, name: string) =>
  new t.RefinementType<C, t.TypeOf<C>, t.OutputOf<C>, unknown>(
    name,
    (u): u is t.TypeOf<C> => codec.is(u) && problem(u) === null,
    (u, c) => {
      const r = codec.validate(u, c);
      if (r._tag === 'Left') return r;
      const why = problem(r.right);
      return why === null ? r : t.failure(u, c, why);
    },
    codec.encode,
    codec,
    (a): a is t.TypeOf<C> => problem(a) === null,
  );

const refineArgv = refined(t.array(t.string), argvProblem, 'Argv (program first: an absolute path or a plain name; at most 64; no NUL byte)');

// Settings reach spawn, git, file paths, URLs and HTTP headers: none of them takes a NUL byte.
const nulIn = (u: unknown, path: string): string | null => {
  if (typeof u === 'string') return u.includes('\u0000') ? path : null;
  if (typeof u !== 'object' || u === null) return null;
  for (const [k, v] of Object.entries(u)) {
    const found = k.includes('\u0000') ? path : nulIn(v, path === '' ? k : `${path}.${k}`);
    if (found !== null) return found || 'body';
  }
  return null;
};
const withoutNul = <C extends t.Mixed>(codec: C) => refined(codec, (a) => {
  const at = nulIn(a, '');
  return at === null ? null : `${at} holds a NUL byte (\\u0000), which no setting may hold`;
}, codec.name);

// sent as an HTTP header: visible ASCII only (a newline or a NUL would break the request)
const headerToken = refined(t.string, (s) => (/^[\x21-\x7e]*$/.test(s) ? null : 'must be visible ASCII characters without blanks (it is sent in an HTTP header)'), 'Token');

interface UsdBrand { readonly Usd: unique symbol }
const usdPerMTok = t.brand(t.number, (n): n is t.Branded<number, UsdBrand> => Number.isFinite(n) && n >= 0 && n <= 10_000, 'Usd');
const PriceRow = t.strict({
  harness: literals(HARNESSES), model: t.string, inputPerMTok: usdPerMTok, cachedInputPerMTok: usdPerMTok, outputPerMTok: usdPerMTok,
});

const RunCap = t.union([t.strict({ _tag: t.literal('Chosen'), value: intIn(1, 64) }), t.strict({ _tag: t.literal('Default') })]);

const changeOf = <C extends t.Mixed, P extends t.Mixed, A extends t.Mixed, T extends t.Mixed>(cap: C, priceRow: P, argv: A, token: T) => t.union([
  t.strict({ _tag: t.literal('RunCap'), cap }),
  t.strict({ _tag: t.literal('McpEndpoint'), enabled: t.boolean }),
  t.strict({ _tag: t.literal('McpToolGroup'), group: literals(TOOL_GROUPS), enabled: t.boolean }),
  t.strict({ _tag: t.literal('WatchdogTimeout'), seconds: intIn(10, 86_400) }),
  t.strict({ _tag: t.literal('DefaultHarness'), harness: literals(HARNESSES) }),
  t.strict({ _tag: t.literal('CodeHost'), graphqlUrl: httpUrl, webHost: t.string }),
  t.strict({ _tag: t.literal('CodeHostToken'), token }),
  t.strict({ _tag: t.literal('TriggerPollInterval'), seconds: intIn(10, 86_400) }),
  t.strict({ _tag: t.literal('ReleaseFeed'), enabled: t.boolean, url: t.union([httpUrl, t.null]) }),
  t.strict({ _tag: t.literal('Prices'), prices: t.array(priceRow) }),
  t.strict({ _tag: t.literal('SupervisorPrices'), prices: t.array(priceRow) }),
  t.strict({ _tag: t.literal('Supervisors'), enabled: t.boolean }),
  t.strict({ _tag: t.literal('FallbackHarnesses'), harnesses: t.array(literals(HARNESSES)) }),
  // an argv, never a shell string: the first element is the program; at most 64 arguments
  t.strict({ _tag: t.literal('NotifyCommand'), argv, kinds: t.array(literals(NEEDS_KINDS)) }),
  t.strict({ _tag: t.literal('PullRequestWatchInterval'), seconds: intIn(10, 86_400) }),
  t.strict({ _tag: t.literal('Previews'), idleMinutes: intIn(1, 1440), limit: intIn(1, 16) }),
]);

/** a change as the doors take it: a field it does not take is refused by name, not dropped */
export const SettingChangeCodec = withoutNul(closed(changeOf(closed(RunCap), closed(PriceRow), refineArgv, headerToken)));
/** a change as the journal holds it: what was stored stays readable whatever it carried (a
 * command that cannot run is then reported, lib/notify/notifier.ts, not dropped) */
export const StoredSettingChangeCodec = changeOf(RunCap, PriceRow, t.array(t.string), t.string);

