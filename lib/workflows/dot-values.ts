import type { StepOutcome } from '../../domain/workflow.js';

// Small parsers for attribute values. Each answers the value or an error message for the author.

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(message: string): Parsed<T> => ({ ok: false, message });

// DOT quoted strings cannot hold a raw line break (this parser refuses them), so text attributes
// take Graphviz's `\n` for a line break; `\\` is a backslash; a backslash at the end of a line
// joins it to the next (DOT's line continuation). Other backslash pairs stay as written.
export const unescapeText = (s: string): string =>
  s.replace(/\\(\\|n|\r?\n)/g, (_m, c: string) => (c === 'n' ? '\n' : c === '\\' ? '\\' : ''));

// The inverse, for writing text back into a quoted DOT string (inlining @files).
export const quoteText = (s: string): string =>
  '"' + s.replace(/\r\n?/g, '\n').replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_WAIT_MS = 30 * UNIT_MS.d;

/** "30s", "5m", "2h", "1d", or a sum like "1h30m"; at most 30 days */
export const parseDuration = (text: string): Parsed<number> => {
  const s = text.trim();
  if (!/^(\d+[smhd])+$/.test(s)) return bad(`"${text}" is not a duration: use a number and a unit s, m, h or d, e.g. 30s, 5m, 2h, 1d, 1h30m`);
  const ms = [...s.matchAll(/(\d+)([smhd])/g)].reduce((sum, m) => sum + Number(m[1]) * UNIT_MS[m[2]], 0);
  if (ms <= 0) return bad('a wait must last longer than zero');
  if (ms > MAX_WAIT_MS) return bad(`"${text}" is longer than the longest wait, 30d`);
  return ok(ms);
};

export const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** "ticket_url, depth" → names; empty items are ignored, so a trailing comma is harmless */
export const splitList = (text: string): string[] =>
  text.split(',').map((x) => x.trim()).filter((x) => x.length > 0);

/** one item of `defaults="ticket_url=,depth=2"`: name=value, the value running to the next comma */
export const parseDefaultItem = (item: string): Parsed<readonly [string, string]> => {
  const eq = item.indexOf('=');
  if (eq <= 0) return bad(`"${item}" is not name=value (write name= for an empty default)`);
  return ok([item.slice(0, eq).trim(), item.slice(eq + 1).trim()] as const);
};

/** `outcome=success` or `outcome=failure` (spaces allowed around `=`) */
export const parseCondition = (text: string): Parsed<StepOutcome> => {
  const m = /^\s*outcome\s*==?\s*(success|failure)\s*$/.exec(text);
  if (!m) return bad(`"${text}" is not a condition: use outcome=success or outcome=failure`);
  return ok(m[1] as StepOutcome);
};
