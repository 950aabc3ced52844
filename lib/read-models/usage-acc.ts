import type { UsageSums } from '../../projections/usage-days.js';
import type { UsageRow } from './usage-answer.js';
import type { UsageGroupBy } from '../../domain/usage.js';

// The usage read model's counters: plain mutable numbers, added to in place (a request over a
// month of 10,000 runs merges tens of thousands of them; objects made per merge would be garbage).

export type Dimension = Exclude<UsageGroupBy, 'day'>;
export const DIMENSIONS: readonly Dimension[] = ['project', 'harness', 'model', 'workflow', 'run'];

export interface Acc { costUsd: number; unknownTurns: number; turns: number; input: number; cachedInput: number; output: number }

/** one local day: its total, and its sums per key of every dimension */
export interface DayBucket { readonly total: Acc; readonly by: Readonly<Record<Dimension, Map<string, Acc>>> }

export const acc = (): Acc => ({ costUsd: 0, unknownTurns: 0, turns: 0, input: 0, cachedInput: 0, output: 0 });

export const dayBucket = (): DayBucket => ({ total: acc(), by: { project: new Map(), harness: new Map(), model: new Map(), workflow: new Map(), run: new Map() } });

export const addTo = (a: Acc, u: UsageSums): void => {
  a.costUsd += u.costUsd; a.unknownTurns += u.unknownTurns; a.turns += u.turns;
  a.input += u.tokens.input; a.cachedInput += u.tokens.cachedInput; a.output += u.tokens.output;
};

export const merge = (a: Acc, b: Acc): void => {
  a.costUsd += b.costUsd; a.unknownTurns += b.unknownTurns; a.turns += b.turns;
  a.input += b.input; a.cachedInput += b.cachedInput; a.output += b.output;
};

/** adds every key's sums of `from` into `into` (forEach: no entry arrays made per key) */
export const mergeAll = (into: Map<string, Acc>, from: ReadonlyMap<string, Acc>): void => {
  from.forEach((a, key) => {
    const g = into.get(key);
    if (g) merge(g, a);
    else into.set(key, { ...a });
  });
};

// float sums drift (0.1 + 0.2): an answer shows micro-dollars, which no price goes below
const usd = (n: number): number => Math.round(n * 1e6) / 1e6;

export const sumsOf = (a: Acc): UsageSums => ({ costUsd: usd(a.costUsd), unknownTurns: a.unknownTurns, turns: a.turns, tokens: { input: a.input, cachedInput: a.cachedInput, output: a.output } });

export const byCost = (a: UsageRow, b: UsageRow): number => b.costUsd - a.costUsd || b.turns - a.turns || (a.key < b.key ? -1 : 1);
