// What a supervisor turn cost: the turn's own share (the adapter subtracts what a resumed session
// had already reported, lib/harness/session-totals.ts). claude computes its cost (`total_cost_usd`
// on its result line). codex and opencode report tokens; their cost is tokens × the price table (USD per million
// tokens) for the harness and model the turn used. A model the table does not list, or a turn
// that reported nothing, is an unknown cost: recorded as unknown, never as zero.
import type { TurnResult } from '../../harness/adapter.js';
import type { HarnessName } from '../../workflows/model.js';

export interface PriceRow {
  readonly harness: HarnessName;
  /** the model name as given to the CLI; '*' prices the harness's own default model */
  readonly model: string;
  readonly inputPerMTok: number;
  readonly cachedInputPerMTok: number;
  readonly outputPerMTok: number;
}

export type TurnCost = { readonly _tag: 'Known'; readonly usd: number } | { readonly _tag: 'Unknown'; readonly why: string };

// Source: OpenAI's API pricing page (platform.openai.com/docs/pricing), standard tier, as
// published for the GPT-5 family in 2025: gpt-5 / gpt-5-codex $1.25 input, $0.125 cached input,
// $10 output; gpt-5-mini $0.25 / $0.025 / $2 per million tokens. opencode rows are the same models
// through their providers. Prices change: the table is a setting (`SupervisorPrices`).
export const DEFAULT_PRICES: readonly PriceRow[] = [
  { harness: 'codex', model: 'gpt-5', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  { harness: 'codex', model: 'gpt-5-codex', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  { harness: 'codex', model: 'gpt-5-mini', inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  { harness: 'opencode', model: 'openai/gpt-5', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
];

const priceFor = (prices: readonly PriceRow[], harness: HarnessName, model: string | undefined): PriceRow | undefined =>
  prices.find((p) => p.harness === harness && p.model === (model ?? '*'));

// codex counts cached tokens inside input_tokens; opencode reports cache reads apart.
const tokens = (harness: HarnessName, u: Readonly<Record<string, number>>): { input: number; cached: number; output: number } => {
  const cached = (harness === 'codex' ? u['cached_input_tokens'] : u['cache_read_tokens']) ?? 0;
  const input = (u['input_tokens'] ?? 0) - (harness === 'codex' ? cached : 0);
  return { input: Math.max(0, input), cached, output: (u['output_tokens'] ?? 0) + (u['reasoning_tokens'] ?? 0) };
};

export const turnCost = (harness: HarnessName, model: string | undefined, r: TurnResult, prices: readonly PriceRow[]): TurnCost => {
  if (harness === 'claude') return r.costUsd === undefined ? { _tag: 'Unknown', why: 'claude reported no cost' } : { _tag: 'Known', usd: r.costUsd };
  const usage = r.usage ?? {};
  if (!Object.keys(usage).length) return { _tag: 'Unknown', why: `${harness} reported no usage` };
  const row = priceFor(prices, harness, model);
  if (!row) return { _tag: 'Unknown', why: `no price for ${harness} ${model ?? 'default model'} in the price table` };
  const t = tokens(harness, usage);
  return { _tag: 'Known', usd: (t.input * row.inputPerMTok + t.cached * row.cachedInputPerMTok + t.output * row.outputPerMTok) / 1e6 };
};
