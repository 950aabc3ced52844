import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromProbe, timesFromLog } from './schedule.js';

// `npx tsx spec/run/record-times.ts run.log [newer.log ...] [--cpu cpu.tsv ...]`: rewrites
// spec/run/file-times.json from the output of full `npm test` runs (ava's verbose lines with their
// times), so the next runs order files by it. Given the lines of a run made with
// SVC_TEST_CPU_LOG=cpu.tsv (spec/run/cpu-probe.mjs), each file's true life from them wins over the
// log's estimate, and its CPU seconds go to spec/run/file-cpu.json, which puts the files that mostly
// wait in the waiting lane: record both from one run on a quiet machine, so the shares are true. A
// file timed in a later log takes that time; one a log lacks keeps the earlier.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const cpuLogs = argv.flatMap((a, i) => (argv[i - 1] === '--cpu' ? [a] : []));
const logs = argv.filter((a, i) => a !== '--cpu' && argv[i - 1] !== '--cpu');
if (logs.length === 0 && cpuLogs.length === 0) {
  console.error('usage: npx tsx spec/run/record-times.ts <npm test output> [a newer one ...] [--cpu <SVC_TEST_CPU_LOG file> ...]');
  process.exit(2);
}
const isFile = (p: string): boolean => existsSync(join(root, p));
const write = (name: string, records: readonly Record<string, number>[]): void => {
  const path = join(root, 'spec', 'run', name);
  const known = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) as Record<string, number> : {};
  const merged = Object.assign(known, ...records) as Record<string, number>;
  const sorted = Object.fromEntries(Object.entries(merged).filter(([f]) => isFile(f)).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 1)}\n`);
  console.log(`${name}: ${Object.keys(sorted).length} files`);
};
const probed = cpuLogs.map((l) => fromProbe(readFileSync(l, 'utf8')));
write('file-times.json', [...logs.map((l) => timesFromLog(readFileSync(l, 'utf8'), isFile)), ...probed.map((p) => p.times)]);
if (probed.length) write('file-cpu.json', probed.map((p) => p.cpu));
