import { left, right } from 'fp-ts/lib/Either.js';
import { invalid, type Outcome } from '../../commands/refusal.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { RUN_EVENT_CODECS, type RunEventOf } from '../../journal/run-events.js';
import { localDay, turnSums, type UsageSums } from '../../projections/usage-days.js';
import type { RunStreams } from '../state/run-stream.js';
import { daysBefore, type UsageAnswer, type UsageGroupBy, type UsageRow } from './usage-answer.js';

// GET /api/usage sums from here: per local day, the usage of every project, harness, model,
// workflow and run that day, kept up to date from the journal's appends. It starts from each
// run's usage cells (in the run snapshots), so neither a start nor a request scans the journal;
// a request adds up the days in its range only.

type Dimension = Exclude<UsageGroupBy, 'day'>;
const DIMENSIONS: readonly Dimension[] = ['project', 'harness', 'model', 'workflow', 'run'];

interface Acc { costUsd: number; unknownTurns: number; turns: number; input: number; cachedInput: number; output: number }
interface DayBucket { readonly total: Acc; readonly by: Readonly<Record<Dimension, Map<string, Acc>>> }
type Keys = Readonly<Record<Dimension, string>>;

const acc = (): Acc => ({ costUsd: 0, unknownTurns: 0, turns: 0, input: 0, cachedInput: 0, output: 0 });
const addTo = (a: Acc, u: UsageSums): void => {
  a.costUsd += u.costUsd; a.unknownTurns += u.unknownTurns; a.turns += u.turns;
  a.input += u.tokens.input; a.cachedInput += u.tokens.cachedInput; a.output += u.tokens.output;
};
const merge = (a: Acc, b: Acc): void => {
  a.costUsd += b.costUsd; a.unknownTurns += b.unknownTurns; a.turns += b.turns;
  a.input += b.input; a.cachedInput += b.cachedInput; a.output += b.output;
};
// float sums drift (0.1 + 0.2): an answer shows micro-dollars, which no price goes below
const usd = (n: number): number => Math.round(n * 1e6) / 1e6;
const sumsOf = (a: Acc): UsageSums => ({ costUsd: usd(a.costUsd), unknownTurns: a.unknownTurns, turns: a.turns, tokens: { input: a.input, cachedInput: a.cachedInput, output: a.output } });

/** How a key reads to a person: project and run names live elsewhere and may change. */
export type Labeller = (groupBy: UsageGroupBy, key: string) => string;

export class UsageIndex {
  private readonly days = new Map<string, DayBucket>();

  constructor(private readonly runs: RunStreams, journal: Journal, private readonly label: Labeller) {
    for (const s of runs.all()) {
      for (const c of s.usageCells ?? []) this.add(c.day, { project: s.projectId, workflow: s.workflow.name, run: s.runId, harness: c.harness, model: c.model }, c);
    }
    journal.subscribe((stream, events) => {
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
    if (!bucket) {
      bucket = { total: acc(), by: { project: new Map(), harness: new Map(), model: new Map(), workflow: new Map(), run: new Map() } };
      this.days.set(day, bucket);
    }
    addTo(bucket.total, u);
    for (const dim of DIMENSIONS) {
      const m = bucket.by[dim];
      let a = m.get(keys[dim]);
      if (!a) m.set(keys[dim], (a = acc()));
      addTo(a, u);
    }
  }

  /** from and to are local days, inclusive; both default to the 30 days that end today */
  query(q: { from?: string; to?: string; groupBy?: UsageGroupBy }, today: string): Outcome<UsageAnswer> {
    const to = q.to ?? today;
    const from = q.from ?? daysBefore(to, 29);
    const groupBy = q.groupBy ?? 'day';
    if (from > to) return left(invalid(`from (${from}) is after to (${to})`));
    const groups = new Map<string, Acc>();
    const total = acc();
    for (const [day, bucket] of this.days) {
      if (day < from || day > to) continue;
      merge(total, bucket.total);
      const parts: Iterable<[string, Acc]> = groupBy === 'day' ? [[day, bucket.total]] : bucket.by[groupBy];
      for (const [key, a] of parts) {
        let g = groups.get(key);
        if (!g) groups.set(key, (g = acc()));
        merge(g, a);
      }
    }
    const rows: UsageRow[] = [...groups].map(([key, a]) => ({ key, label: this.label(groupBy, key), ...sumsOf(a) }));
    rows.sort(groupBy === 'day' ? (a, b) => (a.key < b.key ? -1 : 1) : (a, b) => b.costUsd - a.costUsd || b.turns - a.turns || (a.key < b.key ? -1 : 1));
    return right({ from, to, groupBy, rows, total: sumsOf(total) });
  }
}
