import { left, right } from 'fp-ts/lib/Either.js';
import { invalid, type Outcome } from '../../commands/refusal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { RUN_EVENT_CODECS, type RunEventOf } from '../../journal/run-events.js';
import { localDay, turnSums, type UsageSums } from '../../projections/usage-days.js';
import type { RunStreams } from '../state/run-stream.js';
import { acc, addTo, byCost, dayBucket, DIMENSIONS, sumsOf, type Acc, type DayBucket, type Dimension } from './usage-acc.js';
import { KeptAnswer, type Keys } from './usage-kept.js';
import { daysBefore, type UsageAnswer, type UsageRow } from './usage-answer.js';
import { type UsageGroupBy } from '../../domain/usage.js';

// GET /api/usage sums from here: per local day, the usage of every project, harness, model,
// workflow and run that day, kept up to date from the journal's appends. It starts from each
// run's usage cells (in the run snapshots), so neither a start nor a request scans the journal;
// a question asked once is kept (usage-kept.ts) and follows each turn recorded after it, so a
// page read again and again costs a lookup, and after a turn a sort and an encoding.

/** How a key reads to a person: project and run names live elsewhere and may change. */
export type Labeller = (groupBy: UsageGroupBy, key: string) => string;

/** `limit`: the first rows only (the top runs); `total` still sums them all */
export type UsageQuest = { readonly from?: string; readonly to?: string; readonly groupBy?: UsageGroupBy; readonly split?: Dimension; readonly limit?: number };

/** answers kept at most; a page asks few distinct questions */
const KEPT = 32;

export class UsageIndex {
  private readonly days = new Map<string, DayBucket>();
  private readonly kept = new Map<string, KeptAnswer>();

  /** `names`: the stream whose appends may rename what an answer shows (the projects stream) */
  constructor(private readonly runs: RunStreams, journal: Journal, private readonly label: Labeller, names: string) {
    for (const s of runs.all()) {
      for (const c of s.views.usageCells ?? []) this.add(c.day, { project: s.projectId, workflow: s.workflow.name, run: s.runId, harness: c.harness, model: c.model }, c);
    }
    journal.subscribe((stream, events) => {
      // a project renamed: kept answers may show its old name (run titles do not change)
      if (stream === names) return this.kept.clear();
      if (!stream.startsWith('run:')) return;
      for (const e of events) if (e.type === 'UsageRecorded') this.record(stream.slice(4), e);
    });
  }

  private record(runId: string, raw: Stored): void {
    const d = decodeStored<RunEventOf<'UsageRecorded'>>(RUN_EVENT_CODECS, raw);
    const s = this.runs.get(runId);
    if (isUnreadable(d) || !s) return;
    this.add(localDay(d.at), { project: s.projectId, workflow: s.workflow.name, run: runId, harness: d.data.harness, model: d.data.model ?? '' }, turnSums(d.data));
  }

  private add(day: string, keys: Keys, u: UsageSums): void {
    let bucket = this.days.get(day);
    if (!bucket) this.days.set(day, (bucket = dayBucket()));
    addTo(bucket.total, u);
    for (const dim of DIMENSIONS) {
      const a = bucket.by[dim].get(keys[dim]);
      if (a) addTo(a, u);
      else { const n = acc(); addTo(n, u); bucket.by[dim].set(keys[dim], n); }
    }
    for (const k of this.kept.values()) k.add(day, keys, u);
  }

  /**
   * from and to are local days, inclusive; both default to the 30 days that end today. `split`
   * (by day only): each day's row also carries its parts by that dimension (the page's stacked chart).
   */
  query(q: UsageQuest, today: string): Outcome<UsageAnswer> {
    const to = q.to ?? today;
    const from = q.from ?? daysBefore(to, 29);
    const groupBy = q.groupBy ?? 'day';
    const split = q.split;
    if (from > to) return left(invalid(`from (${from}) is after to (${to})`));
    if (split && groupBy !== 'day') return left(invalid(`split is for groupBy=day only (groupBy is ${groupBy})`));
    const key = `${from}/${to}/${groupBy}/${split ?? ''}`;
    let kept = this.kept.get(key);
    if (!kept) {
      kept = new KeptAnswer(from, to, groupBy, this.days, (k, a) => {
        const row = { key: k, label: this.label(groupBy, k), ...sumsOf(a) };
        return split ? { ...row, parts: this.rows(split, this.days.get(k)!.by[split]) } : row;
      });
      if (this.kept.size >= KEPT) this.kept.clear();
      this.kept.set(key, kept);
    }
    const answer = kept.read();
    return right(q.limit !== undefined && answer.rows.length > q.limit ? { ...answer, rows: answer.rows.slice(0, q.limit) } : answer);
  }

  private rows(dim: Dimension, sums: ReadonlyMap<string, Acc>): UsageRow[] {
    const rows: UsageRow[] = [];
    sums.forEach((a, key) => rows.push({ key, label: this.label(dim, key), ...sumsOf(a) }));
    return rows.sort(byCost);
  }
}
