// What an agent turn cost, for run steps and supervisor turns alike: the turn's own share (the
// adapter subtracts what a resumed session had already reported, lib/harness/session-totals.ts).
// A CLI that computes its cost (claude's `total_cost_usd`, opencode's step cost) is `Reported`;
// else tokens × the `Prices` setting (USD per million tokens) for the harness and model is
// `Priced`; a model the table does not list, or a turn that reported nothing, is `Unknown` with
// why: recorded as unknown, never as zero.
import type { TurnResult } from '../harness/adapter.js';
import type { HarnessName } from '../../domain/workflow.js';
import type { PriceRow } from '../../domain/prices.js';
import type { TurnTokens, UsageCost } from '../../journal/run-events.js';

// The model's own row; for a turn svc named no model for, the row of the model the CLI says it ran
// on, else the harness's '*' row (its default model, whatever that is).
const priceFor = (prices: readonly PriceRow[], harness: HarnessName, model: string | undefined, ranOn: string | undefined): PriceRow | undefined => {
  const row = (name: string) => prices.find((p) => p.harness === harness && p.model === name);
  if (model) return row(model);
  return (ranOn ? row(ranOn) : undefined) ?? row('*');
};

const unpriced = (harness: HarnessName, model: string | undefined, ranOn: string | undefined): string =>
  model ? `no price for ${harness} ${model} in the price table`
    : ranOn ? `no price for ${harness} ${ranOn} (its default model) in the price table, and no '*' row for ${harness}`
    : `no price for ${harness} default model in the price table`;

// `input` is uncached input: claude reports cache reads apart (cache writes are billed as input);
// codex counts cached tokens inside input_tokens; opencode reports cache reads apart. Reasoning is output.
export const turnTokens = (harness: HarnessName, u: Readonly<Record<string, number>> | undefined): TurnTokens | null => {
  if (!u || !Object.keys(u).length) return null;
  const n = (k: string): number => u[k] ?? 0;
  if (harness === 'claude') return { input: n('input_tokens') + n('cache_creation_input_tokens'), cachedInput: n('cache_read_input_tokens'), output: n('output_tokens') };
  if (harness === 'codex') return { input: Math.max(0, n('input_tokens') - n('cached_input_tokens')), cachedInput: n('cached_input_tokens'), output: n('output_tokens') };
  return { input: n('input_tokens'), cachedInput: n('cache_read_tokens'), output: n('output_tokens') + n('reasoning_tokens') };
};

const priced = (row: PriceRow, t: TurnTokens): number =>
  (t.input * row.inputPerMTok + t.cachedInput * row.cachedInputPerMTok + t.output * row.outputPerMTok) / 1e6;

// opencode reports a cost of 0 for a model its config does not price: not a figure, so the table decides.
const reported = (harness: HarnessName, r: TurnResult): number | undefined =>
  r.costUsd === undefined || (harness === 'opencode' && r.costUsd === 0) ? undefined : r.costUsd;

export const turnCost = (harness: HarnessName, model: string | undefined, r: TurnResult, prices: readonly PriceRow[]): UsageCost => {
  const own = reported(harness, r);
  if (own !== undefined) return { _tag: 'Reported', usd: own };
  const tokens = turnTokens(harness, r.usage);
  if (!tokens) return { _tag: 'Unknown', why: `${harness} reported no ${harness === 'claude' ? 'cost' : 'usage'}` };
  const row = priceFor(prices, harness, model, r.model);
  if (!row) return { _tag: 'Unknown', why: unpriced(harness, model, r.model) };
  return { _tag: 'Priced', usd: priced(row, tokens) };
};

/** dollars a cost counts for, or null when it is unknown */
export const knownUsd = (c: UsageCost | { readonly _tag: 'Known'; readonly usd: number }): number | null => (c._tag === 'Unknown' ? null : c.usd);
