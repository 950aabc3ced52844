import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timesFromLog } from './schedule.js';

// `npx tsx spec/run/record-times.ts run.log [newer.log ...]`: rewrites spec/run/file-times.json from
// the output of full `npm test` runs (ava's verbose lines with their times), so the next runs order
// files by it. A file timed in a later log takes that time; one a log lacks keeps the earlier.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const logs = process.argv.slice(2);
if (logs.length === 0) { console.error('usage: npx tsx spec/run/record-times.ts <npm test output> [a newer one ...]'); process.exit(2); }
const isFile = (p: string): boolean => existsSync(join(root, p));
const times = Object.assign({}, ...logs.map((l) => timesFromLog(readFileSync(l, 'utf8'), isFile))) as Record<string, number>;
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, 'spec', 'run', 'file-times.json'), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} files timed`);
