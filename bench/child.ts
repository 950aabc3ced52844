import { writeFileSync } from 'node:fs';
import type { BenchResult } from './common.js';

// One benchmark in its own process (spawned by run.ts with --expose-gc and a temp HOME): a fresh
// heap for each, and a crash or a hang cannot take the others with it.

const [name, out] = process.argv.slice(2);
if (!name || !out) throw new Error('usage: child.ts <benchmark> <result.json>');
const m = (await import(`./${name}.js`)) as { run(): Promise<BenchResult> };
const result = await m.run();
writeFileSync(out, JSON.stringify(result));
// Servers, timers or LMDB handles a benchmark forgot must not keep the child alive.
process.exit(0);
