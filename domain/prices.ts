import type { HarnessName } from './workflow.js';

// The Prices setting's rows (USD per million tokens by harness and model) and the table svc ships
// with; lib/usage/prices.ts prices a turn with them.

export interface PriceRow {
  readonly harness: HarnessName;
  /** the model name as given to the CLI; '*' prices the harness's own default model */
  readonly model: string;
  readonly inputPerMTok: number;
  readonly cachedInputPerMTok: number;
  readonly outputPerMTok: number;
}

// Source: OpenAI's API pricing page (platform.openai.com/docs/pricing), standard tier, as
// published for the GPT-5 family in 2025: gpt-5 / gpt-5-codex $1.25 input, $0.125 cached input,
// $10 output; gpt-5-mini $0.25 / $0.025 / $2 per million tokens. opencode rows are the same models
// through their providers. Prices change: the table is a setting (`Prices`).
export const DEFAULT_PRICES: readonly PriceRow[] = [
  { harness: 'codex', model: 'gpt-5', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  { harness: 'codex', model: 'gpt-5-codex', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  { harness: 'codex', model: 'gpt-5-mini', inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  { harness: 'opencode', model: 'openai/gpt-5', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
];
