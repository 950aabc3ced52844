import * as t from 'io-ts';
import { USAGE_GROUP_BY, type UsageGroupBy } from '../../domain/usage.js';
import { fields } from './object.js';
import { countFromQuery, intRange, oneOf, type IntRangeType } from './kinds.js';

// What runs cost, asked by range and grouping (docs/usage.md): GET /api/usage and /api/usage.csv
// read it from the query (strings), read_usage from MCP arguments (JSON); one shape decodes both,
// strictly: a day that is not a real calendar day, or a grouping not offered, is refused by name.

export const USAGE_QUERY = ['from', 'to', 'groupBy'] as const;
/** the CSV has no `split` (a file is one table of rows) nor `limit` (a file has them all) */
export const USAGE_JSON_QUERY = [...USAGE_QUERY, 'split', 'limit'] as const;

const realDay = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** the codec's name: lib/mcp/json-schema.ts advertises it as a pattern */
export const DAY_NAME = 'a day written YYYY-MM-DD';
export const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const Day = new t.Type<string, string, unknown>(DAY_NAME, (u): u is string => typeof u === 'string' && realDay(u), (u, c) =>
  typeof u === 'string' && realDay(u) ? t.success(u) : t.failure(u, c), t.identity);

// every grouping but day: a day's row split into parts (the stacked chart)
const SPLITS = ['project', 'harness', 'model', 'workflow', 'run'] as const satisfies readonly Exclude<UsageGroupBy, 'day'>[];

const LIMIT = 'a whole number from 1 to 10000';
const usage = (limit: IntRangeType) => fields({}, { from: Day, to: Day, groupBy: oneOf(USAGE_GROUP_BY), split: oneOf(SPLITS), limit });

/** read_usage's arguments: JSON, where a limit is a number, as its schema (integer) says */
export const UsageInput = usage(intRange(1, 10_000, LIMIT));
export type UsageInput = t.TypeOf<typeof UsageInput>;
/** GET /api/usage's query: the same, but a query has only strings, so its limit is digits */
export const UsageQuery = usage(countFromQuery(1, 10_000, LIMIT));
