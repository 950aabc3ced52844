import type { UsageSums } from '../../projections/usage-days.js';
import { USAGE_GROUP_BY, type UsageGroupBy } from '../../domain/usage.js';

// The shape of GET /api/usage and its CSV form (GET /api/usage.csv).


/** costUsd sums the known costs only: unknownTurns says how many turns were not priced */
export type UsageRow = { readonly key: string; readonly label: string; readonly parts?: readonly UsageRow[] } & UsageSums;

export interface UsageAnswer {
  readonly from: string;
  readonly to: string;
  readonly groupBy: UsageGroupBy;
  readonly rows: readonly UsageRow[];
  readonly total: UsageSums;
}

/** the calendar day `n` days before a YYYY-MM-DD day (calendar arithmetic: no time zone enters) */
export const daysBefore = (day: string, n: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

const CSV_HEADER = ['key', 'label', 'costUsd', 'unknownTurns', 'turns', 'inputTokens', 'cachedInputTokens', 'outputTokens'];

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A text that a
// spreadsheet would run as a formula (a run title is anyone's text) is led by a quote mark.
const field = (v: string | number): string => {
  if (typeof v === 'number') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const usageCsv = (a: UsageAnswer): string => {
  const lines = [CSV_HEADER.join(',')];
  for (const r of a.rows) {
    lines.push([r.key, r.label, r.costUsd, r.unknownTurns, r.turns, r.tokens.input, r.tokens.cachedInput, r.tokens.output].map(field).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
};
