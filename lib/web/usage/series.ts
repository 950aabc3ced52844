import type { UsageAnswer } from './shapes.js';

// The chart's data: one bar per local day of the range (days with nothing at 0), split into the
// range's biggest parts; the rest are summed as "other" so the legend stays readable.

const MOST = 5;

export interface Stacked {
  /** each day's start, local midnight, in seconds (uPlot's time scale) */
  readonly days: readonly number[];
  readonly dayNames: readonly string[];
  /** one per part, biggest first: its label, its known cost per day and its turns of unknown cost per day */
  readonly parts: readonly { readonly label: string; readonly costs: readonly number[]; readonly unknownTurns: readonly number[] }[];
  /** turns per day whose cost is unknown: not in the bars, which show known costs only */
  readonly unknown: readonly number[];
}

const localMidnight = (day: string): number => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime() / 1000;
};

export const daysOf = (from: string, to: string): string[] => {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  for (let day = from; day <= to && out.length < 400; day = d.toISOString().slice(0, 10)) {
    out.push(day);
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
};

export const stacked = (a: UsageAnswer): Stacked => {
  const dayNames = daysOf(a.from, a.to);
  const totals = new Map<string, { label: string; cost: number }>();
  for (const r of a.rows) for (const p of r.parts ?? []) {
    const t = totals.get(p.key) ?? { label: p.label, cost: 0 };
    totals.set(p.key, { label: t.label, cost: t.cost + p.costUsd });
  }
  const ranked = [...totals].sort((x, y) => y[1].cost - x[1].cost);
  const shown = ranked.slice(0, ranked.length > MOST ? MOST - 1 : MOST);
  const index = new Map(shown.map(([key], i) => [key, i]));
  const other = ranked.length > shown.length;
  const parts = [...shown.map(([, t]) => t.label), ...(other ? ['other'] : [])].map((label) => ({ label, costs: dayNames.map(() => 0), unknownTurns: dayNames.map(() => 0) }));
  const row = new Map(a.rows.map((r) => [r.key, r]));
  dayNames.forEach((day, i) => {
    for (const p of row.get(day)?.parts ?? []) {
      const at = index.get(p.key) ?? parts.length - 1;
      parts[at]!.costs[i] += p.costUsd;
      parts[at]!.unknownTurns[i] += p.unknownTurns;
    }
  });
  const unknown = dayNames.map((day) => row.get(day)?.unknownTurns ?? 0);
  return { days: dayNames.map(localMidnight), dayNames, parts, unknown };
};
