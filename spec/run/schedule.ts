// The order `npm test` hands test files to ava. Ava runs them two at a time in the order given; in
// name order, a slow file that happens to sort late leaves one core idle while it finishes. Files
// go longest first instead (the classic longest-processing-time rule), by the time each took in a
// recorded run (spec/run/file-times.json, made from ava's verbose output by
// spec/run/record-times.ts). A file the record does not know yet (a new one) counts as slow, so it
// runs early rather than becoming the tail.

/** seconds a file took last time, by its path from the repository root (spec/x/y.test.ts) */
export type FileTimes = Readonly<Record<string, number>>;

export const UNKNOWN_SECONDS = 20;

/** `files` longest first; ties (and unknown files among themselves) keep name order */
export const longestFirst = (files: readonly string[], times: FileTimes): string[] =>
  [...files].sort((a, b) => (times[b] ?? UNKNOWN_SECONDS) - (times[a] ?? UNKNOWN_SECONDS) || a.localeCompare(b));

const seconds = (d: string): number => {
  const m = /^([\d.]+)(ms|s|m)$/.exec(d);
  if (!m) return 0;
  const v = Number(m[1]);
  return m[2] === 'ms' ? v / 1000 : m[2] === 'm' ? v * 60 : v;
};

// ava prints `✔ http › controls › title (4.2s)` for a test that passed (a failed one has no time:
// its file stays untimed, so it runs early); a title may itself hold ` › `, so the file is the
// longest prefix that names a spec file that exists.
const LINE = /^\s+✔\s+(.*?)(?: \(([\d.]+(?:ms|s|m))\))?\s*$/u;

const fileOf = (title: string, isFile: (path: string) => boolean): string | undefined => {
  const parts = title.split(' › ');
  for (let n = parts.length - 1; n >= 1; n--) {
    const path = `spec/${parts.slice(0, n).join('/')}.test.ts`;
    if (isFile(path)) return path;
  }
  return undefined;
};

/**
 * Each file's time from a verbose ava log. Tests in a file run at once, so its time is about its
 * slowest test; a quarter of the rest is added for the load the others put on the same two cores.
 */
export const timesFromLog = (log: string, isFile: (path: string) => boolean): Record<string, number> => {
  const tests = new Map<string, number[]>();
  for (const line of log.split('\n')) {
    const m = LINE.exec(line);
    const file = m ? fileOf(m[1]!, isFile) : undefined;
    if (file) tests.set(file, [...(tests.get(file) ?? []), seconds(m![2] ?? '0')]);
  }
  const out: Record<string, number> = {};
  for (const [file, ds] of [...tests].sort(([a], [b]) => a.localeCompare(b))) {
    const slowest = Math.max(...ds);
    out[file] = Math.round((slowest + (ds.reduce((s, d) => s + d, 0) - slowest) / 4) * 10) / 10;
  }
  return out;
};
