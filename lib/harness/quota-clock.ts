// Times of day the CLIs name when they refuse, turned into instants: a wall-clock time means
// nothing without its zone, and Intl knows the zones' rules (no table of our own).

export const iso = (ms: number): string | undefined => (Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined);

// the zone's offset from UTC at `at`, in ms; undefined for a zone Intl does not know
const zoneOffset = (zone: string, at: number): number | undefined => {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
    const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(at / 1000) * 1000;
  } catch {
    return undefined;
  }
};

/** the instant a wall-clock time in `zone` names (the offset is taken at that instant: DST) */
const wallClock = (zone: string, y: number, mo: number, d: number, h: number, mi: number): number | undefined => {
  const local = Date.UTC(y, mo, d, h, mi);
  const first = zoneOffset(zone, local);
  if (first === undefined) return undefined;
  return local - (zoneOffset(zone, local - first) ?? first);
};

/** the next `hour:minute` in `zone` after `now` */
export const nextTimeOfDay = (hour: number, minute: number, zone: string, now: Date): string | undefined => {
  const offset = zoneOffset(zone, now.getTime());
  if (offset === undefined || hour > 23 || minute > 59) return undefined;
  const local = new Date(now.getTime() + offset);
  let at = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), hour, minute) - offset;
  if (at <= now.getTime()) at += 24 * 3600_000;
  return iso(at);
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** a named day, or today in `zone` */
const dayOf = (zone: string, now: Date, date?: { month: string; day: number; year: number }): [number, number, number] | undefined => {
  if (date) {
    const mo = MONTHS.indexOf(date.month.slice(0, 3).toLowerCase());
    return mo < 0 ? undefined : [date.year, mo, date.day];
  }
  const offset = zoneOffset(zone, now.getTime());
  if (offset === undefined) return undefined;
  const local = new Date(now.getTime() + offset);
  return [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
};

/**
 * codex's "try again at 9:35 AM" (its reset on the local date it ran) or "… at Nov 27th, 2026
 * 6:34 AM": its local wall clock, cut to the minute (measured, codex 0.169), so the reset lies
 * somewhere in that minute: the wait ends when the minute does, never before the reset.
 * A named time already gone is no reset at all (the caller backs off instead).
 */
export const minuteEnd = (zone: string, now: Date, h: number, mi: number, date?: { month: string; day: number; year: number }): string | undefined => {
  const day = dayOf(zone, now, date);
  if (!day || h > 23 || mi > 59) return undefined;
  const at = wallClock(zone, day[0], day[1], day[2], h, mi);
  return at === undefined || at + 60_000 <= now.getTime() ? undefined : iso(at + 60_000);
};

/** the zone a CLI writes its wall-clock times in: its TZ (":Europe/Berlin" too), else this machine's */
export const localZoneOf = (env: NodeJS.ProcessEnv): string => {
  const tz = env['TZ']?.replace(/^:/, '');
  if (tz && zoneOffset(tz, 0) !== undefined) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
};
