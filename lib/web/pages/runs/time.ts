// Times on the board as a person reads them: an age ("3 h ago") and a length ("1 h 5 min").
// Pure: `now` is an argument, so a test fixes it.

const UNITS: readonly (readonly [number, string])[] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];

/** a length of time in its largest unit and the next: `2 d 3 h`, `5 min`, `40 s`; under a second is `0 s` */
export const span = (ms: number): string => {
  const whole = Math.max(0, Math.floor(ms));
  const i = UNITS.findIndex(([size]) => whole >= size);
  if (i < 0) return '0 s';
  const [size, unit] = UNITS[i]!;
  const n = Math.floor(whole / size);
  const next = UNITS[i + 1];
  const m = next ? Math.floor((whole - n * size) / next[0]) : 0;
  return m && next ? `${n} ${unit} ${m} ${next[1]}` : `${n} ${unit}`;
};

/** how long ago an instant was, in its largest unit: `just now` under a minute, else `5 min ago` */
export const ago = (iso: string, now: number): string => {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  if (ms < 60_000) return 'just now';
  const [size, unit] = UNITS.find(([s]) => ms >= s)!;
  return `${Math.floor(ms / size)} ${unit} ago`;
};
