import type { RunDetail } from '../../service-api.js';
import { costText, tokenCount } from '../ui/usage-text.js';

// A step's cost and tokens in its thread heading ("$0.42 · 12.3k in / 1.1k out"), from the run
// detail's `usage.steps` (docs/usage.md). A step whose every turn had an unknown cost says so; a
// step with no tokens recorded shows its cost alone.

interface Tokens { readonly input: number; readonly cachedInput: number; readonly output: number }
/** one step of the run detail's `usage.steps`; unknownTurns where the detail gives it */
interface StepUsage { readonly stepId: string; readonly costUsd: number | null; readonly unknownTurns?: number; readonly tokens: Tokens; readonly turns: number }

export const stepUsageOf = (run: RunDetail | null, stepId: string): StepUsage | undefined =>
  ((run as { usage?: { steps?: readonly StepUsage[] } } | null)?.usage?.steps ?? []).find((s) => s.stepId === stepId);

export const StepCost = ({ usage }: { readonly usage: StepUsage | undefined }) => {
  if (!usage || usage.turns === 0) return null;
  const input = usage.tokens.input + usage.tokens.cachedInput;
  const cost = usage.costUsd === null ? 'cost unknown' : costText(usage.costUsd, usage.unknownTurns ?? 0);
  const title = `${usage.turns} turn${usage.turns === 1 ? '' : 's'}; input ${input} tokens (${usage.tokens.cachedInput} cached), output ${usage.tokens.output}`;
  // a CLI that reports a cost but no tokens (or a turn stopped before it said) has no token figure:
  // "0 in / 0 out" would read as a turn that used none
  const counted = input + usage.tokens.output > 0;
  return <span class="muted step-cost" title={title}>{cost}{counted ? ` · ${tokenCount(input)} in / ${tokenCount(usage.tokens.output)} out` : ''}</span>;
};
