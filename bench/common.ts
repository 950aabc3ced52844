import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

// Shared by every benchmark: result rows (a figure, the baseline measured in the same run, their
// ratio, a target), bounded timing loops, temp folders, percentiles. Absolute times are printed to
// inform, never asserted: the machine is shared and noisy.

export interface Target { readonly op: '<' | '<=' | '>' | '>='; readonly value: number }

export interface Row {
  readonly bench: string;
  readonly measure: string;
  readonly measured: number;
  readonly baseline: number;
  readonly unit: string;
  readonly baselineLabel: string;
  /** measured / baseline, or baseline / measured for a throughput compared as a slowdown */
  readonly ratio: number;
  readonly ratioOf: 'measured/baseline' | 'baseline/measured';
  readonly target: Target | null;
  readonly result: 'PASS' | 'MISS' | 'INFO';
  readonly note?: string;
}

export interface BenchResult {
  readonly bench: string;
  readonly rows: Row[];
  readonly notes: string[];
  readonly seconds: number;
}

const meets = (ratio: number, t: Target): boolean =>
  t.op === '<' ? ratio < t.value : t.op === '<=' ? ratio <= t.value : t.op === '>' ? ratio > t.value : ratio >= t.value;

export const row = (r: { bench: string; measure: string; measured: number; baseline: number; unit: string; baselineLabel: string; target?: Target; note?: string; slowdown?: boolean }): Row => {
  const { slowdown, ...rest } = r;
  const ratio = slowdown ? r.baseline / r.measured : r.measured / r.baseline;
  const target = r.target ?? null;
  return { ...rest, ratio, ratioOf: slowdown ? 'baseline/measured' : 'measured/baseline', target, result: target && Number.isFinite(ratio) ? (meets(ratio, target) ? 'PASS' : 'MISS') : target ? 'MISS' : 'INFO' };
};

/** The folder a run.ts child owns (removed by run.ts when the child exits), or a fresh temp one. */
export const benchTmp = (name: string): string => {
  const root = process.env['BENCH_TMP'] ?? mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

export const now = (): number => performance.now();

/** how long one awaited call takes, in milliseconds */
export const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = now();
  await f();
  return now() - t0;
};

/** Calls f until `count` calls or `maxMs` elapsed, whichever first; returns calls made and ms spent. */
export const bounded = (f: (i: number) => void, count: number, maxMs: number): { n: number; ms: number } => {
  const t0 = now();
  let n = 0;
  while (n < count && now() - t0 < maxMs) f(n++);
  return { n, ms: now() - t0 };
};

export const percentile = (xs: readonly number[], p: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

export const median = (xs: readonly number[]): number => percentile(xs, 50);

export const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run with --expose-gc (npm run bench does)');
  for (let i = 0; i < 3; i++) g();
};

export const heapAfterGc = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A git repository with one commit on main: a project's primary folder. */
export const gitRepo = (dir: string): string => {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'init');
  return dir;
};

export const LINEAR = `digraph linear {
  inputs="ticket"
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}`;

export const writeLinearWorkflow = (home: string): void => {
  mkdirSync(join(home, 'workflows'), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'workflows', 'linear.dot'), LINEAR);
};

/** An agent's reply of about `size` bytes: the bulk of a real run's journal. */
export const replyText = (i: number, size = 160): string => `reply ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(Math.ceil(size / 27)).slice(0, size);

export const fmt = (x: number): string => {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1e6) return x.toExponential(2);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 1) return x.toFixed(2);
  return x.toPrecision(3);
};

/** `p`, or a rejection when it takes longer than `ms` (the timer is cleared either way). */
export const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};
