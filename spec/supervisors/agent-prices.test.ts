import '../helpers/env.js';
import test from 'ava';
import { turnCost } from '../../lib/usage/prices.js';
import { DEFAULT_PRICES, type PriceRow } from '../../domain/prices.js';
import { testServer } from '../helpers/server.js';

// Turn costs: claude's own figure, codex/opencode tokens × the price table, unknown (never zero)
// when nothing says what it cost; the table is a setting with the Settings page's checks.

const ok = { outcome: 'success' as const, summary: '' };
const row: PriceRow = { harness: 'opencode', model: 'p/m', inputPerMTok: 2, cachedInputPerMTok: 1, outputPerMTok: 10 };

test('costs: given a turn result, then the cost', (t) => {
  const cases: [string, ReturnType<typeof turnCost>, ReturnType<typeof turnCost>][] = [
    ['claude reports its cost', turnCost('claude', undefined, { ...ok, costUsd: 0.25 }, []), { _tag: 'Reported', usd: 0.25 }],
    ['claude without a cost', turnCost('claude', undefined, ok, []), { _tag: 'Unknown', why: 'claude reported no cost' }],
    ['codex: cached tokens are part of input_tokens', turnCost('codex', 'gpt-5', { ...ok, usage: { input_tokens: 1_000_000, cached_input_tokens: 400_000, output_tokens: 100_000 } }, DEFAULT_PRICES), { _tag: 'Priced', usd: 0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10 }],
    ['opencode: cache reads apart, reasoning billed as output', turnCost('opencode', 'p/m', { ...ok, usage: { input_tokens: 1e6, cache_read_tokens: 1e6, output_tokens: 1e5, reasoning_tokens: 1e5 } }, [row]), { _tag: 'Priced', usd: 2 + 1 + 2 }],
    ['opencode reports its cost', turnCost('opencode', 'p/m', { ...ok, costUsd: 0.5, usage: { input_tokens: 1e6 } }, [row]), { _tag: 'Reported', usd: 0.5 }],
    ['claude without a cost, priced from its tokens', turnCost('claude', 'm', { ...ok, usage: { input_tokens: 1e6, cache_read_input_tokens: 1e6, output_tokens: 1e5 } }, [{ ...row, harness: 'claude', model: 'm' }]), { _tag: 'Priced', usd: 2 + 1 + 1 }],
    ['a model not in the table', turnCost('codex', 'gpt-9', { ...ok, usage: { input_tokens: 5 } }, DEFAULT_PRICES), { _tag: 'Unknown', why: 'no price for codex gpt-9 in the price table' }],
    ['no usage reported', turnCost('codex', 'gpt-5', ok, DEFAULT_PRICES), { _tag: 'Unknown', why: 'codex reported no usage' }],
    ["'*' prices the default model", turnCost('codex', undefined, { ...ok, usage: { output_tokens: 1e6 } }, [{ ...row, harness: 'codex', model: '*' }]), { _tag: 'Priced', usd: 10 }],
  ];
  for (const [name, got, want] of cases) {
    if (want._tag !== 'Unknown' && got._tag === want._tag) t.true(Math.abs(got.usd - want.usd) < 1e-9, `${name}: ${got.usd}`);
    else t.deepEqual(got, want, name);
  }
});

test('the price table (Prices, once SupervisorPrices) is a setting: stored when valid, 400 with a detail when not', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  t.deepEqual((await s.get('/api/settings')).body.prices, DEFAULT_PRICES);
  const prices = [{ harness: 'codex', model: '*', inputPerMTok: 1, cachedInputPerMTok: 0.1, outputPerMTok: 8 }];
  const put = (body: unknown) => s.send('PUT', '/api/settings', JSON.stringify(body));
  t.is((await put({ _tag: 'SupervisorPrices', prices: DEFAULT_PRICES.slice(0, 1) })).status, 200, 'the earlier name is still taken');
  t.deepEqual((await s.get('/api/settings')).body.prices, DEFAULT_PRICES.slice(0, 1));
  t.is((await put({ _tag: 'Prices', prices })).status, 200);
  t.deepEqual((await s.get('/api/settings')).body.prices, prices);
  const bad: [string, unknown][] = [
    ['negative price', [{ ...prices[0], outputPerMTok: -1 }]],
    ['unknown harness', [{ ...prices[0], harness: 'gemini' }]],
    ['missing field', [{ harness: 'codex', model: 'x', inputPerMTok: 1, outputPerMTok: 1 }]],
    ['not a list', { codex: 1 }],
  ];
  for (const [name, p] of bad) {
    const r = await put({ _tag: 'Prices', prices: p });
    t.is(r.status, 400, name);
    t.is(typeof r.body.detail, 'string', name);
  }
  t.deepEqual((await s.get('/api/settings')).body.prices, prices, 'a refused change changes nothing');
});
