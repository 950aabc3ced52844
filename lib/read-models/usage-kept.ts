import type { UsageSums } from '../../projections/usage-days.js';
import { acc, addTo, byCost, merge, mergeAll, sumsOf, type Acc, type DayBucket, type Dimension } from './usage-acc.js';
import type { UsageAnswer, UsageRow } from './usage-answer.js';
import type { UsageGroupBy } from '../../domain/usage.js';

// One question asked of the usage read model (a range and a grouping), kept with its sums and
// kept up to date as turns are recorded: a turn adds to one group, and only that group's row is
// made again when the answer is next read. So a page of 10,000 runs read after each turn costs a
// sort and an encoding, not a pass over every day of every run.

export type Keys = Readonly<Record<Dimension, string>>;

const byDay = (a: UsageRow, b: UsageRow): number => (a.key < b.key ? -1 : 1);

// Each row is encoded when it is made, so an answer's JSON after a turn is a join of kept strings.
const encoded = new WeakMap<UsageAnswer, string>();
const rowJson = new WeakMap<UsageRow, string>();

/** The answer as JSON text, encoded once; a kept answer's rows were encoded as they were made. */
export const answerJson = (a: UsageAnswer): string => {
  let json = encoded.get(a);
  if (json === undefined) {
    const rows = a.rows.map((r) => rowJson.get(r) ?? JSON.stringify(r)).join(',');
    json = `{"from":${JSON.stringify(a.from)},"to":${JSON.stringify(a.to)},"groupBy":${JSON.stringify(a.groupBy)},"rows":[${rows}],"total":${JSON.stringify(a.total)}}`;
    encoded.set(a, json);
  }
  return json;
};

export class KeptAnswer {
  private readonly groups = new Map<string, Acc>();
  private readonly total = acc();
  private readonly rows = new Map<string, UsageRow>();
  private readonly dirty = new Set<string>();
  private answer: UsageAnswer | null = null;

  /** `row`: a group's row as the answer shows it (its label, and its parts for a split) */
  constructor(
    readonly from: string, readonly to: string, readonly groupBy: UsageGroupBy,
    days: ReadonlyMap<string, DayBucket>, private readonly row: (key: string, sums: Acc) => UsageRow,
  ) {
    days.forEach((bucket, day) => {
      if (day < from || day > to) return;
      merge(this.total, bucket.total);
      if (groupBy === 'day') this.groups.set(day, { ...bucket.total });
      else mergeAll(this.groups, bucket.by[groupBy]);
    });
    for (const key of this.groups.keys()) this.dirty.add(key);
  }

  /** a turn recorded on `day` after the answer was made */
  add(day: string, keys: Keys, u: UsageSums): void {
    if (day < this.from || day > this.to) return;
    const key = this.groupBy === 'day' ? day : keys[this.groupBy];
    let a = this.groups.get(key);
    if (!a) this.groups.set(key, (a = acc()));
    addTo(a, u);
    addTo(this.total, u);
    this.dirty.add(key);
    this.answer = null;
  }

  read(): UsageAnswer {
    if (this.answer) return this.answer;
    for (const key of this.dirty) {
      const row = this.row(key, this.groups.get(key)!);
      rowJson.set(row, JSON.stringify(row));
      this.rows.set(key, row);
    }
    this.dirty.clear();
    const rows = [...this.rows.values()].sort(this.groupBy === 'day' ? byDay : byCost);
    this.answer = { from: this.from, to: this.to, groupBy: this.groupBy, rows, total: sumsOf(this.total) };
    return this.answer;
  }
}


