// How money and tokens read in the app. An unknown cost is said to be unknown, never shown as $0.

export const usd = (n: number): string => (n === 0 || n >= 0.01 ? `$${n.toFixed(2)}` : '<$0.01');

/** "$0.42", "cost unknown (2 turns)", or "$0.42 + 2 turns unknown" */
export const costText = (costUsd: number, unknownTurns: number): string => {
  if (unknownTurns === 0) return usd(costUsd);
  const turns = `${unknownTurns} turn${unknownTurns === 1 ? '' : 's'}`;
  return costUsd === 0 ? `cost unknown (${turns})` : `${usd(costUsd)} + ${turns} unknown`;
};

/** "cost $0.42", "cost unknown (2 turns)" (not "cost cost unknown"), or "cost $0.42 + 2 turns unknown" */
export const costPhrase = (costUsd: number, unknownTurns: number): string => {
  const text = costText(costUsd, unknownTurns);
  return text.startsWith('cost ') ? text : `cost ${text}`;
};

/** 950, 12.3k, 4.1M */
export const tokenCount = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);

/** true when anything was recorded: a run or step with no turns shows no cost at all */
export const hasUsage = (u: { readonly costUsd: number; readonly unknownTurns: number; readonly turns?: number }): boolean =>
  (u.turns ?? 0) > 0 || u.costUsd > 0 || u.unknownTurns > 0;

/** any token recorded: a CLI that reports a cost but no tokens has no token figure to show, and
 *  "0 in / 0 out" would read as turns that used none */
export const tokensRecorded = (t: { readonly input: number; readonly cachedInput: number; readonly output: number }): boolean =>
  t.input + t.cachedInput + t.output > 0;
