// GET /api/usage as the page reads it (lib/read-models/usage-answer.ts).

export interface Tokens { readonly input: number; readonly cachedInput: number; readonly output: number }

export interface UsageSums {
  readonly costUsd: number;
  readonly unknownTurns: number;
  readonly turns: number;
  readonly tokens: Tokens;
}

export interface UsageRow extends UsageSums {
  readonly key: string;
  readonly label: string;
  readonly parts?: readonly UsageRow[];
}

export interface UsageAnswer {
  readonly from: string;
  readonly to: string;
  readonly groupBy: string;
  readonly rows: readonly UsageRow[];
  readonly total: UsageSums;
}

export type StackBy = 'harness' | 'project';
