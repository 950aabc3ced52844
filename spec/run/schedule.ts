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

/** CPU seconds a file's test process and the children it waited for used last time (spec/run/cpu-probe.mjs) */
export type FileCpu = Readonly<Record<string, number>>;

/**
 * a file that used the CPU for less than this share of its time mostly waits. At 0.2 the waiting
 * lane held 7 files (304 s) beside a busy lane of about 990 s on a quiet run: the lane idled for
 * two thirds of the phase while files that use a quarter of a core (the real-CLI watchdog and
 * question files) held busy places for a minute and more. At 0.3 it holds 13 (about 580 s).
 */
export const WAITING_SHARE = 0.3;
/** and is worth a lane of its own only when it waits this long (seconds) */
export const WAITING_LIFE = 20;

/**
 * The files split in two lanes that `npm test` runs side by side, each with its own ava: a file that
 * mostly waits (on a clock, a CLI's answer) costs the two cores little, so the waiting lane's files
 * run beside the busy lane's instead of taking one of its places. A file not yet measured counts as
 * busy; so does one that drives a browser, whose work is in a Chromium its CPU record leaves out.
 * Each lane keeps the longest-first order.
 */
export const lanesOf = (files: readonly string[], times: FileTimes, cpu: FileCpu, browser: (f: string) => boolean = () => false): { busy: string[]; waiting: string[] } => {
  const waits = (f: string): boolean => !browser(f) && times[f] !== undefined && cpu[f] !== undefined && times[f]! >= WAITING_LIFE && cpu[f]! / times[f]! < WAITING_SHARE;
  const ordered = longestFirst(files, times);
  return { busy: ordered.filter((f) => !waits(f)), waiting: ordered.filter(waits) };
};

/**
 * The files that run beside the network phase (spec/run/suite.ts): the files that change the network
 * mostly wait on workers and leave a core idle, but no browser may load meanwhile (below). So files
 * that drive no browser are kept back from the first phase for then, the longest that fit, up to
 * about as long as the network files will take two at a time by the record.
 */
export const besideNetwork = (candidates: readonly string[], network: readonly string[], times: FileTimes): string[] => {
  const life = (f: string): number => times[f] ?? UNKNOWN_SECONDS;
  const lives = network.map(life);
  const budget = Math.max(0, ...lives, lives.reduce((a, b) => a + b, 0) / 2);
  const kept: string[] = [];
  let sum = 0;
  for (const f of longestFirst(candidates.filter((c) => times[c] !== undefined), times)) {
    if (life(f) > budget / 2 || sum + life(f) > budget) continue;
    kept.push(f);
    sum += life(f);
  }
  return kept;
};

/**
 * Each test file's life and CPU seconds from cpu-probe.mjs's lines (`<bundle path>\t<seconds
 * alive>\t<cpu seconds>`), by its spec path. The life is the file's true time, where the times in
 * ava's log are its tests' (which overlap, and include their wait for a place).
 */
export const fromProbe = (text: string): { times: Record<string, number>; cpu: Record<string, number> } => {
  const times: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [bundle, alive, used] = line.split('\t').map((s) => s.trim());
    const m = /dist\/suite-spec\/(spec\/.+\.test)\.mjs$/.exec(bundle ?? '');
    if (!m || !alive || !used || !Number.isFinite(Number(alive)) || !Number.isFinite(Number(used))) continue;
    times[`${m[1]}.ts`] = Number(alive);
    cpu[`${m[1]}.ts`] = Number(used);
  }
  return { times, cpu };
};

// A spec that gives this machine's network a new link or address (a veth pair for a worker in its
// own network namespace) makes a Chromium running at that moment fail what it was loading with
// net::ERR_NETWORK_CHANGED: its network-change watcher sees the root namespace's links and
// addresses, loopback or not. Such files run after the others, and one of them that drives a
// browser runs alone.
const CHANGES_NETWORK = /netns|veth/;
const DRIVES_BROWSER = /openApp\(|sharedBrowser\(|playwright|chromium/i;

/**
 * whether a file drives a browser: the app's tests and the app window's (`svc app` opens one), and
 * any other that opens the app or names a browser
 */
export const drivesBrowser = (file: string, text: string): boolean =>
  file.startsWith('spec/web/') || file.startsWith('spec/app-window/') || DRIVES_BROWSER.test(text);

/**
 * which of `files` (by their source text) change the network, and which of those drive a browser;
 * the runner's own tests (spec/run/) hold such words as samples and are never among them
 */
export const networkFiles = (files: readonly string[], source: (file: string) => string): { plain: string[]; browser: string[] } => {
  const net = files.filter((f) => !f.startsWith('spec/run/') && CHANGES_NETWORK.test(source(f)));
  return { plain: net.filter((f) => !drivesBrowser(f, source(f))), browser: net.filter((f) => drivesBrowser(f, source(f))) };
};
