import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timesFromLog } from './schedule.js';

// `npx tsx spec/run/record-times.ts run.log`: rewrites spec/run/file-times.json from the output of
// a full `npm test` (ava's verbose lines with their times), so the next runs order files by it.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const log = process.argv[2];
if (!log) { console.error('usage: npx tsx spec/run/record-times.ts <npm test output>'); process.exit(2); }
const times = timesFromLog(readFileSync(log, 'utf8'), (p) => existsSync(join(root, p)));
writeFileSync(join(root, 'spec', 'run', 'file-times.json'), `${JSON.stringify(times, null, 1)}\n`);
console.log(`${Object.keys(times).length} files timed`);
