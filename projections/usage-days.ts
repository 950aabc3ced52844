import type { RunEventOf } from '../journal/run-events.js';
import { localDay as dayOf } from '../domain/supervisor.js';
import type { HarnessName } from '../domain/workflow.js';

// A run's usage by local day, harness and model: the fold the usage read model
// (lib/read-models/usage.ts) starts from after a restart, so that it never scans the journal. It
// lives in the run's state (and so in its snapshot) because a run has few such cells: one per day
// and harness and model it used, however many turns it took.

export interface Tokens {
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
}

/** costUsd sums the known costs only; unknownTurns counts the turns whose cost is unknown */
export interface UsageSums {
  readonly costUsd: number;
  readonly unknownTurns: number;
  readonly turns: number;
  readonly tokens: Tokens;
}

export interface UsageCell extends UsageSums {
  /** the local day (YYYY-MM-DD) of the turn's `at`, in the service's time zone */
  readonly day: string;
  readonly harness: HarnessName;
  /** '' when the CLI did not say */
  readonly model: string;
}

export type UsageData = RunEventOf<'UsageRecorded'>['data'];

export const NO_USAGE: UsageSums = { costUsd: 0, unknownTurns: 0, turns: 0, tokens: { input: 0, cachedInput: 0, output: 0 } };

/** the local calendar day of an ISO time (the spending ledger's day): the day a person would name */
export const localDay = (at: string): string => dayOf(new Date(at));

/** one turn's usage as sums (a turn whose tokens were not reported adds none) */
export const turnSums = (u: UsageData): UsageSums => ({
  costUsd: u.cost._tag === 'Unknown' ? 0 : u.cost.usd,
  unknownTurns: u.cost._tag === 'Unknown' ? 1 : 0,
  turns: 1,
  tokens: u.tokens ?? NO_USAGE.tokens,
});

export const addSums = (a: UsageSums, b: UsageSums): UsageSums => ({
  costUsd: a.costUsd + b.costUsd,
  unknownTurns: a.unknownTurns + b.unknownTurns,
  turns: a.turns + b.turns,
  tokens: { input: a.tokens.input + b.tokens.input, cachedInput: a.tokens.cachedInput + b.tokens.cachedInput, output: a.tokens.output + b.tokens.output },
});

const sumsOf = (c: UsageSums): UsageSums => ({ costUsd: c.costUsd, unknownTurns: c.unknownTurns, turns: c.turns, tokens: c.tokens });

export const evolveUsageCells = (cells: readonly UsageCell[] | undefined, u: UsageData, at: string): readonly UsageCell[] => {
  const day = localDay(at);
  const model = u.model ?? '';
  const all = cells ?? [];
  const i = all.findIndex((c) => c.day === day && c.harness === u.harness && c.model === model);
  const cell: UsageCell = { day, harness: u.harness, model, ...addSums(i < 0 ? NO_USAGE : sumsOf(all[i]!), turnSums(u)) };
  return i < 0 ? [...all, cell] : all.map((c, j) => (j === i ? cell : c));
};
