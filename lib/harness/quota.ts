// When a CLI's usage window resets, read from what it said when it refused: the one place these
// shapes live. Each CLI words it its own way (see docs/usage.md "Quota windows"):
//   claude  "Claude AI usage limit reached|1750708800" (epoch seconds), "You've hit your limit ·
//           resets 3pm (Europe/Berlin)", "Your limit will reset at 9am (America/Chicago)", and
//           rate_limit_event.resetsAt (epoch seconds)
//   codex   "You’ve hit your usage limit … try again at 3:05 PM" (its local time, to the
//           minute; "at Nov 27th, 2026 6:34 AM" on another day) / "try again later" (no time)
//   opencode the provider's HTTP error with its headers: retry-after, retry-after-ms,
//           x-ratelimit-reset-*, anthropic-ratelimit-*-reset
// A time of day names the next such moment after `now` (in the zone given, else UTC).
import type { TurnQuota, TurnResult } from './adapter.js';
import { clip } from './classify.js';
import { iso, minuteEnd, nextTimeOfDay } from './quota-clock.js';

const EVIDENCE_MAX = 1000;

/** epoch seconds or milliseconds (as number or digits), or an ISO/HTTP date */
export const resetFromValue = (v: unknown): string | undefined => {
  if (typeof v === 'number') return iso(v < 1e11 ? v * 1000 : v);
  if (typeof v !== 'string' || !v.trim()) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return resetFromValue(Number(v.trim()));
  return iso(Date.parse(v));
};

const CLOCK = /(?:resets?|reset at)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?:\s*\(([A-Za-z_+\-/0-9]+)\))?/i;
const EPOCH = /usage limit reached\|(\d{9,13})/i;
// codex: "try again at 9:35 AM" (today) or "try again at Nov 27th, 2026 6:34 AM", its local time
const CODEX_AT = /try again at\s+(?:([A-Za-z]{3,9})\s+(\d{1,2})(?:st|nd|rd|th)?,\s*(\d{4})\s+)?(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)/i;
const IN = /try again in\s+(\d+)\s*(second|minute|hour|day)s?/i;
const UNIT_MS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3600_000, day: 86_400_000 };

const to24 = (h: number, ampm: string | undefined): number => {
  if (!ampm) return h;
  const pm = ampm.toLowerCase().startsWith('p');
  return (h % 12) + (pm ? 12 : 0);
};

const codexAt = (m: RegExpExecArray, zone: string, now: Date): string | undefined => {
  const date = m[1] ? { month: m[1], day: Number(m[2]), year: Number(m[3]) } : undefined;
  return minuteEnd(zone, now, to24(Number(m[4]), m[6]), Number(m[5]), date);
};

/**
 * A reset time in a CLI's own words, or undefined when it named none. `zone`: the zone of a
 * wall-clock time that names none (codex writes its local time; claude names its zone).
 */
export const resetFromText = (text: string, now: Date, zone = 'UTC'): string | undefined => {
  const epoch = EPOCH.exec(text);
  if (epoch) return resetFromValue(epoch[1]);
  const rel = IN.exec(text);
  if (rel) return iso(now.getTime() + Number(rel[1]) * UNIT_MS[rel[2]!.toLowerCase()]!);
  const at = CODEX_AT.exec(text);
  if (at) return codexAt(at, zone, now);
  const clock = CLOCK.exec(text);
  if (!clock || (!clock[2] && !clock[3])) return undefined; // a bare number is no time of day
  return nextTimeOfDay(to24(Number(clock[1]), clock[3]), Number(clock[2] ?? 0), clock[4] ?? zone, now);
};

// "1s", "6m0s", "1h2m3.5s" (OpenAI's x-ratelimit-reset-*): a duration from now
const duration = (v: string): number | undefined => {
  const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/.exec(v.trim());
  if (!m || !v.trim()) return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 + Number(m[4] ?? 0);
};

const RESET_HEADER = /^(anthropic-ratelimit-.*reset|x-ratelimit-reset.*)$/i;
const namesReset = (key: string): boolean => key === 'retry-after' || key === 'retry-after-ms' || RESET_HEADER.test(key);

/** the headers that name a reset, as the provider sent them: part of the raw evidence */
export const resetHeaderText = (headers: Readonly<Record<string, unknown>>): string =>
  Object.entries(headers).filter(([k]) => namesReset(k.toLowerCase())).map(([k, v]) => `${k}: ${String(v)}`).join('; ');

/** the latest reset any of the response's headers names (the window ends when every limit has) */
export const resetFromHeaders = (headers: Readonly<Record<string, unknown>>, now: Date): string | undefined => {
  const found: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const v = String(value ?? '');
    const key = name.toLowerCase();
    if (key === 'retry-after-ms') found.push(now.getTime() + Number(v));
    else if (key === 'retry-after') found.push(/^\d+$/.test(v.trim()) ? now.getTime() + Number(v) * 1000 : Date.parse(v));
    else if (RESET_HEADER.test(key)) {
      const d = key.startsWith('x-ratelimit') ? duration(v) : undefined;
      found.push(d !== undefined ? now.getTime() + d : Date.parse(resetFromValue(v) ?? ''));
    }
  }
  const valid = found.filter((n) => Number.isFinite(n) && n > 0);
  return valid.length ? iso(Math.max(...valid)) : undefined;
};

export interface QuotaHints {
  /** a reset time the CLI gave as a value (claude's rate_limit_event resetsAt) */
  readonly resetsAt?: unknown;
  /** the provider's response headers, where the CLI passes them on (opencode) */
  readonly headers?: Readonly<Record<string, unknown>>;
  /** the zone of a wall-clock time that names none (codex writes its local time) */
  readonly zone?: string;
}

/**
 * What a quota failure says: its raw words (capped) and the reset time they name, if any. The
 * headers that named the reset join the words: they are the evidence as much as the message.
 */
export const quotaOf = (words: string, now: Date, hints: QuotaHints = {}): TurnQuota => {
  const headers = hints.headers ? resetHeaderText(hints.headers) : '';
  const resetsAt = resetFromValue(hints.resetsAt) ?? (headers ? resetFromHeaders(hints.headers!, now) : undefined) ?? resetFromText(words, now, hints.zone);
  const evidence = headers ? `${words} [${headers}]` : words;
  return { ...(resetsAt ? { resetsAt } : {}), evidence: clip(evidence, EVIDENCE_MAX) };
};

/** A quota failure carries its evidence and reset time; any other result is left as it is. */
export const withQuota = (r: TurnResult, evidence: string, now: Date, hints: QuotaHints = {}): TurnResult =>
  r.failure === 'quota' ? { ...r, quota: quotaOf(evidence || r.summary, now, hints) } : r;
