import type { RunDetail } from '../../../projections/run-shapes.js';
import { costPhrase, costText, tokenCount, tokensRecorded } from '../ui/usage-text.js';

// A step's cost and tokens in its thread heading ("$0.42 · 12.3k in / 1.1k out"), from the run
// detail's `usage.steps` (docs/usage.md). A step whose every turn had an unknown cost says so; a
// step with no tokens recorded shows its cost alone.

interface Tokens { readonly input: number; readonly cachedInput: number; readonly output: number }
/** one step of the run detail's `usage.steps`; unknownTurns where the detail gives it */
interface StepUsage { readonly stepId: string; readonly costUsd: number | null; readonly unknownTurns?: number; readonly unknownWhy?: string; readonly tokens: Tokens; readonly turns: number }

export const stepUsageOf = (run: RunDetail | null, stepId: string): StepUsage | undefined =>
  ((run as { usage?: { steps?: readonly StepUsage[] } } | null)?.usage?.steps ?? []).find((s) => s.stepId === stepId);

export const StepCost = ({ usage }: { readonly usage: StepUsage | undefined }) => {
  if (!usage || usage.turns === 0) return null;
  const input = usage.tokens.input + usage.tokens.cachedInput;
  const cost = usage.costUsd === null ? 'cost unknown' : costText(usage.costUsd, usage.unknownTurns ?? 0);
  // why a cost is unknown is said on screen: a price row the person can add, or a CLI that reported nothing
  const why = usage.unknownWhy && (usage.unknownTurns ?? 0) > 0 ? `: ${usage.unknownWhy}` : '';
  const title = `${usage.turns} turn${usage.turns === 1 ? '' : 's'}; input ${input} tokens (${usage.tokens.cachedInput} cached), output ${usage.tokens.output}`;
  return <span class="muted step-cost" title={title}>{cost}{why}{tokensRecorded(usage.tokens) ? ` · ${tokenCount(input)} in / ${tokenCount(usage.tokens.output)} out` : ''}</span>;
};

// The run's own cost in its header, as its board card gives it; with a budget, how much of it is
// spent ("spent $2.00 of $5.00 budget"). Before, the run page gave each step's cost but never the sum.
export const RunCost = ({ run }: { readonly run: RunDetail }) => {
  const turns = run.usage.steps.reduce((n, st) => n + st.turns, 0);
  if (run.budget) return <span class="muted run-cost" title="what this run's agent turns cost, of its budget">{run.budget.text}</span>;
  if (turns === 0) return null;
  return <span class="muted run-cost" title="what this run's agent turns cost">{costPhrase(run.usage.total.costUsd ?? 0, run.usage.total.unknownTurns)}</span>;
};
