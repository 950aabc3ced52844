import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, type BenchResult, type Row } from './common.js';

// `npm run bench [-- name...]`: every benchmark in sequence, each in a child process with
// --expose-gc, a temp HOME/SVC_HOME and a time limit; then one table, and the same as JSON in
// bench/results.json. A MISS informs; it does not fail the process.

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const BENCHES: readonly { name: string; limitS: number }[] = [
  { name: 'journal-append', limitS: 60 },
  { name: 'history-paging', limitS: 90 },
  { name: 'runs-list', limitS: 240 },
  { name: 'wait-waiters', limitS: 90 },
  { name: 'cold-start', limitS: 200 },
  { name: 'runs-page', limitS: 240 },
  { name: 'snapshot', limitS: 120 },
  { name: 'run-folder', limitS: 120 },
  { name: 'usage', limitS: 240 },
  { name: 'sandbox', limitS: 60 },
  { name: 'preview', limitS: 120 },
  { name: 'worker-dispatch', limitS: 240 },
  { name: 'worker-spread', limitS: 900 },
];

const runChild = (name: string, limitS: number): Promise<BenchResult | { bench: string; error: string }> => {
  const tmp = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  const home = join(tmp, 'home');
  mkdirSync(home, { mode: 0o700 });
  const out = join(tmp, 'result.json');
  const env = {
    ...process.env, HOME: home, SVC_HOME: join(home, '.svc'), BENCH_TMP: tmp, GIT_CONFIG_NOSYSTEM: '1',
    SVC_HARNESS_MODULE: join(root, 'spec', 'fixtures', 'harness', 'scripted.ts'),
    // no release check against the registry in the background while measuring
    SVC_RELEASE_FEED: 'off',
  };
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, 'child.ts'), name, out], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const timer = setTimeout(() => { console.error(`${name}: over ${limitS} s, stopping it`); child.kill('SIGKILL'); }, limitS * 1000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const result = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as BenchResult) : { bench: name, error: `exited ${code ?? signal} without a result` };
      rmSync(tmp, { recursive: true, force: true });
      resolve(result);
    });
  });
};

const targetText = (r: Row): string => (r.target ? `${r.target.op} ${r.target.value}` : '—');

const table = (rows: readonly Row[]): string => {
  const head = ['benchmark', 'measure', 'measured', 'baseline', 'unit', 'baseline is', 'ratio', 'target', 'result'];
  const ratio = (r: Row) => (r.ratioOf === 'measured/baseline' ? fmt(r.ratio) : `${fmt(r.ratio)} (b/m)`);
  const body = rows.map((r) => [r.bench, r.measure, fmt(r.measured), fmt(r.baseline), r.unit, r.baselineLabel, ratio(r), targetText(r), r.result]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n');
};

const main = async () => {
  const only = process.argv.slice(2);
  const chosen = only.length ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;
  const results: (BenchResult | { bench: string; error: string })[] = [];
  const t0 = Date.now();
  for (const b of chosen) {
    console.log(`\n== ${b.name}`);
    const r = await runChild(b.name, b.limitS);
    if ('error' in r) console.error(`${b.name}: ${r.error}`);
    else {
      console.log(table(r.rows));
      for (const n of r.notes) console.log(`  note: ${n}`);
      console.log(`  (${r.seconds.toFixed(1)} s)`);
    }
    results.push(r);
  }
  const rows = results.flatMap((r) => ('rows' in r ? r.rows : []));
  console.log(`\n== all (${((Date.now() - t0) / 1000).toFixed(0)} s; ratio = measured / baseline, or baseline / measured where marked (b/m): a throughput read as a slowdown; both measured in this run)\n${table(rows)}`);
  // A run of some benchmarks replaces only their entries, so the file always holds one of each.
  const file = join(here, 'results.json');
  const previous = only.length && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { results: { bench: string }[] }).results : [];
  const merged = [...previous.filter((p) => !results.some((r) => r.bench === p.bench)), ...results]
    .sort((a, b) => BENCHES.findIndex((x) => x.name === a.bench) - BENCHES.findIndex((x) => x.name === b.bench));
  const report = { at: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', seconds: (Date.now() - t0) / 1000, results: merged };
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`\nwritten to bench/results.json`);
};

await main();
