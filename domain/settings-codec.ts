import * as t from 'io-ts';
import { HARNESSES } from './workflow.js';
import { NEEDS_KINDS, TOOL_GROUPS } from './settings.js';
import { closed } from './closed.js';

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

// a refinement (not a custom type) so the MCP tool's JSON Schema still shows an array of strings
const refineArgv = t.refinement(t.array(t.string), (a) => a.length <= 64 && (a.length === 0 || a[0]!.trim() !== ''), 'Argv (program first, not blank; at most 64)');

interface UsdBrand { readonly Usd: unique symbol }
const usdPerMTok = t.brand(t.number, (n): n is t.Branded<number, UsdBrand> => Number.isFinite(n) && n >= 0 && n <= 10_000, 'Usd');
const PriceRow = t.strict({
  harness: literals(HARNESSES), model: t.string, inputPerMTok: usdPerMTok, cachedInputPerMTok: usdPerMTok, outputPerMTok: usdPerMTok,
});

const RunCap = t.union([t.strict({ _tag: t.literal('Chosen'), value: intIn(1, 64) }), t.strict({ _tag: t.literal('Default') })]);

const changeOf = <C extends t.Mixed, P extends t.Mixed>(cap: C, priceRow: P) => t.union([
  t.strict({ _tag: t.literal('RunCap'), cap }),
  t.strict({ _tag: t.literal('McpEndpoint'), enabled: t.boolean }),
  t.strict({ _tag: t.literal('McpToolGroup'), group: literals(TOOL_GROUPS), enabled: t.boolean }),
  t.strict({ _tag: t.literal('WatchdogTimeout'), seconds: intIn(10, 86_400) }),
  t.strict({ _tag: t.literal('DefaultHarness'), harness: literals(HARNESSES) }),
  t.strict({ _tag: t.literal('CodeHost'), graphqlUrl: httpUrl, webHost: t.string }),
  t.strict({ _tag: t.literal('CodeHostToken'), token: t.string }),
  t.strict({ _tag: t.literal('TriggerPollInterval'), seconds: intIn(10, 86_400) }),
  t.strict({ _tag: t.literal('ReleaseFeed'), enabled: t.boolean, url: t.union([httpUrl, t.null]) }),
  t.strict({ _tag: t.literal('Prices'), prices: t.array(priceRow) }),
  t.strict({ _tag: t.literal('SupervisorPrices'), prices: t.array(priceRow) }),
  t.strict({ _tag: t.literal('Supervisors'), enabled: t.boolean }),
  t.strict({ _tag: t.literal('FallbackHarnesses'), harnesses: t.array(literals(HARNESSES)) }),
  // an argv, never a shell string: the first element is the program; at most 64 arguments
  t.strict({ _tag: t.literal('NotifyCommand'), argv: refineArgv, kinds: t.array(literals(NEEDS_KINDS)) }),
  t.strict({ _tag: t.literal('PullRequestWatchInterval'), seconds: intIn(10, 86_400) }),
]);

/** a change as the doors take it: a field it does not take is refused by name, not dropped */
export const SettingChangeCodec = closed(changeOf(closed(RunCap), closed(PriceRow)));
/** a change as the journal holds it: what was stored stays readable whatever it carried */
export const StoredSettingChangeCodec = changeOf(RunCap, PriceRow);

