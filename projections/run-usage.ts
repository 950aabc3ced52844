import type { RunEventOf, TurnTokens } from '../journal/run-events.js';
import type { SessionTotals } from '../domain/harness.js';
import type { HarnessName } from '../domain/workflow.js';
import { localDay } from '../domain/supervisor.js';

// What a run's agent turns cost, folded from its UsageRecorded events: per step, in total, per
// local day (the project's daily budget sums these), and each session's last running totals (a
// resumed session counts only its own turn). Unknown turns are counted, never added as zero.

export interface StepUsage {
  readonly stepId: string;
  readonly node: string;
  readonly harness: HarnessName;
  readonly model?: string;
  readonly knownUsd: number;
  readonly unknownTurns: number;
  readonly tokens: TurnTokens;
  readonly turns: number;
  /** why its latest turn of unknown cost is unknown ("no price for codex gpt-5.5 in the price table") */
  readonly unknownWhy?: string;
}

export interface RunUsage {
  readonly steps: readonly StepUsage[];
  readonly knownUsd: number;
  readonly unknownTurns: number;
  readonly tokens: TurnTokens;
  /** known dollars per local day (YYYY-MM-DD) the turns were recorded on */
  readonly days: Readonly<Record<string, number>>;
  /** sessionId -> the CLI's running totals at the end of that session's last recorded turn */
  readonly sessions: Readonly<Record<string, SessionTotals>>;
}

export const NO_USAGE: RunUsage = { steps: [], knownUsd: 0, unknownTurns: 0, tokens: { input: 0, cachedInput: 0, output: 0 }, days: {}, sessions: {} };

const ZERO: TurnTokens = NO_USAGE.tokens;
const plus = (a: TurnTokens, b: TurnTokens | null): TurnTokens =>
  b ? { input: a.input + b.input, cachedInput: a.cachedInput + b.cachedInput, output: a.output + b.output } : a;

type Turn = RunEventOf<'UsageRecorded'>['data'];

const usd = (d: Turn): number => (d.cost._tag === 'Unknown' ? 0 : d.cost.usd);
const unknown = (d: Turn): number => (d.cost._tag === 'Unknown' ? 1 : 0);

const stepWith = (prev: StepUsage | undefined, d: Turn): StepUsage => ({
  stepId: d.stepId, node: d.node, harness: d.harness, ...(d.model ? { model: d.model } : prev?.model ? { model: prev.model } : {}),
  knownUsd: (prev?.knownUsd ?? 0) + usd(d), unknownTurns: (prev?.unknownTurns ?? 0) + unknown(d),
  tokens: plus(prev?.tokens ?? ZERO, d.tokens), turns: (prev?.turns ?? 0) + 1,
  ...(d.cost._tag === 'Unknown' ? { unknownWhy: d.cost.why } : prev?.unknownWhy ? { unknownWhy: prev.unknownWhy } : {}),
});

/** One turn added; `at`: when it was recorded (its journal envelope), which local day it counts on. */
export const addTurn = (u: RunUsage, d: Turn, at: string): RunUsage => {
  const i = u.steps.findIndex((s) => s.stepId === d.stepId);
  const steps = i < 0 ? [...u.steps, stepWith(undefined, d)] : u.steps.map((s, j) => (j === i ? stepWith(s, d) : s));
  const day = localDay(new Date(at));
  return {
    steps, knownUsd: u.knownUsd + usd(d), unknownTurns: u.unknownTurns + unknown(d), tokens: plus(u.tokens, d.tokens),
    days: usd(d) ? { ...u.days, [day]: (u.days[day] ?? 0) + usd(d) } : u.days,
    sessions: d.sessionId && d.sessionTotals ? { ...u.sessions, [d.sessionId]: d.sessionTotals } : u.sessions,
  };
};

/** The run detail's `usage` (GET /api/runs/{id}, get_run): costUsd null only when every turn was unknown. */
export interface UsageView {
  readonly total: { readonly costUsd: number | null; readonly unknownTurns: number; readonly tokens: TurnTokens };
  readonly steps: readonly { readonly stepId: string; readonly node: string; readonly harness: HarnessName; readonly model?: string; readonly costUsd: number | null; readonly unknownTurns: number; readonly unknownWhy?: string; readonly tokens: TurnTokens; readonly turns: number }[];
}

const costOf = (knownUsd: number, unknownTurns: number, turns: number): number | null => (turns > 0 && unknownTurns === turns ? null : knownUsd);

/** A run's cost as the board and Compare show it: null until a turn is recorded, or when every recorded turn's cost is unknown. */
export const recordedCostUsd = (s: { readonly usage?: RunUsage }): number | null => {
  const u = s.usage;
  const turns = u ? u.steps.reduce((n, st) => n + st.turns, 0) : 0;
  return u && turns > 0 ? costOf(u.knownUsd, u.unknownTurns, turns) : null;
};

export const usageOfRun = (s: { readonly usage?: RunUsage }): UsageView => {
  const u = s.usage ?? NO_USAGE;
  const turns = u.steps.reduce((n, st) => n + st.turns, 0);
  return {
    total: { costUsd: costOf(u.knownUsd, u.unknownTurns, turns), unknownTurns: u.unknownTurns, tokens: u.tokens },
    steps: u.steps.map((st) => ({
      stepId: st.stepId, node: st.node, harness: st.harness, ...(st.model ? { model: st.model } : {}),
      // unknownTurns: a step's header says "$0.42 + 1 turn unknown", not a known-looking $0.42
      costUsd: costOf(st.knownUsd, st.unknownTurns, st.turns), unknownTurns: st.unknownTurns, tokens: st.tokens, turns: st.turns,
      ...(st.unknownWhy ? { unknownWhy: st.unknownWhy } : {}),
    })),
  };
};

/** "$1.23", or "at least $1.23 (2 turns of unknown cost)": unknown turns are never shown as zero */
export const spentText = (knownUsd: number, unknownTurns: number): string =>
  unknownTurns > 0 ? `at least ${usdText(knownUsd)} (${unknownTurns} turn${unknownTurns === 1 ? '' : 's'} of unknown cost)` : usdText(knownUsd);

/** cents, or four places below a dime: one agent turn often costs a fraction of a cent */
export const usdText = (n: number): string => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.1 ? 4 : 2)}`;
