import * as t from 'io-ts';
import { USAGE_GROUP_BY, type UsageGroupBy } from '../read-models/usage-answer.js';

// The query of GET /api/usage and /api/usage.csv, decoded strictly: a day that is not a real
// calendar day, or a grouping not offered, is a 400 naming it, never an empty answer.

export const USAGE_QUERY = ['from', 'to', 'groupBy'] as const;

const realDay = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

const Day = new t.Type<string, string, unknown>('Day', t.string.is, (u, c) =>
  typeof u === 'string' && realDay(u) ? t.success(u) : t.failure(u, c, 'must be a day written YYYY-MM-DD'), t.identity);

const GroupBy = new t.Type<UsageGroupBy, string, unknown>('GroupBy', (u): u is UsageGroupBy => USAGE_GROUP_BY.includes(u as UsageGroupBy), (u, c) =>
  USAGE_GROUP_BY.includes(u as UsageGroupBy) ? t.success(u as UsageGroupBy) : t.failure(u, c, `must be one of ${USAGE_GROUP_BY.join(', ')}`), t.identity);

const SPLITS = USAGE_GROUP_BY.filter((g) => g !== 'day') as Exclude<UsageGroupBy, 'day'>[];
const Split = new t.Type<Exclude<UsageGroupBy, 'day'>, string, unknown>('Split', (u): u is Exclude<UsageGroupBy, 'day'> => SPLITS.includes(u as never), (u, c) =>
  SPLITS.includes(u as never) ? t.success(u as Exclude<UsageGroupBy, 'day'>) : t.failure(u, c, `must be one of ${SPLITS.join(', ')}`), t.identity);

/** the CSV has no `split` (a file is one table of rows) nor `limit` (a file has them all) */
export const USAGE_JSON_QUERY = [...USAGE_QUERY, 'split', 'limit'] as const;

const Limit = new t.Type<number, string, unknown>('Limit', (u): u is number => typeof u === 'number', (u, c) =>
  typeof u === 'string' && /^\d{1,5}$/.test(u) && Number(u) >= 1 && Number(u) <= 10_000 ? t.success(Number(u)) : t.failure(u, c, 'must be a whole number from 1 to 10000'), String);

export const UsageQuery = t.partial({ from: Day, to: Day, groupBy: GroupBy, split: Split, limit: Limit });
export type UsageQuery = t.TypeOf<typeof UsageQuery>;
