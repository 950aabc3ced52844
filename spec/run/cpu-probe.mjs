import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// Loaded into each of ava's test processes when SVC_TEST_CPU_LOG names a file (spec/run/suite.ts):
// as the process ends it appends its test file, its life in seconds and the CPU seconds it and the
// children it waited for used (Linux's /proc/self/stat: utime, stime, cutime, cstime). A file that
// spends most of its life waiting (on a clock, a CLI, a browser) runs in the waiting lane
// (spec/run/schedule.ts): the record of this is spec/run/file-cpu.json (spec/run/record-times.ts).

const log = process.env.SVC_TEST_CPU_LOG;
// ava's worker keeps the file it runs in this module (not among its exports, so named by path)
const options = createRequire(import.meta.url)(join(import.meta.dirname, '..', '..', 'node_modules', 'ava', 'lib', 'worker', 'options.cjs'));
const TICKS = 100;

if (log) {
  process.on('exit', () => {
    let file;
    try { file = options.get().file; } catch { return; }
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const [user, system, kidsUser, kidsSystem] = [11, 12, 13, 14].map((i) => Number(fields[i]) / TICKS);
    appendFileSync(log, `${file}\t${process.uptime().toFixed(1)}\t${(user + system + kidsUser + kidsSystem).toFixed(1)}\n`);
  });
}
