// A resumed session's running totals, and a turn's own share of them. claude's `total_cost_usd`
// and codex's `turn.completed` usage count every turn of the session (claude and codex restore
// them from the session's own files on `--resume` / `resume`), so a turn's cost is the difference
// from what the CLI reported at the end of the session's previous recorded turn. The caller
// journals the totals with the turn and gives them back when it resumes the session, so a turn
// after a server restart still counts only what happened since that record.

/** The turn's own cost; a total below the one before means the CLI counted afresh. */
export const ownCost = (total: number, before: number | undefined): number =>
  before === undefined || total < before ? total : total - before;

/** The turn's own tokens, key by key; any count below the one before means the CLI counted afresh. */
export const ownUsage = (total: Readonly<Record<string, number>>, before: Readonly<Record<string, number>> | undefined): Record<string, number> => {
  if (!before || Object.entries(before).some(([k, v]) => (total[k] ?? 0) < v)) return { ...total };
  return Object.fromEntries(Object.entries(total).map(([k, v]) => [k, v - (before[k] ?? 0)]));
};

