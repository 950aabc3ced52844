import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// The lanes of `npm test` (spec/run/schedule.ts) run side by side, each its own ava. Their output
// goes through whole lines, so a line of one is never cut by a line of the other, and ava's
// verbose lines stay as spec/run/record-times.ts reads them.

// ava's line for a failed test, and for its file's summary
const FAILED = /^\s+✘ /u;
const SUMMARY = /^\s+\d+ (tests? (passed|failed)|known failures?|uncaught exceptions?|unhandled rejections?|tests? skipped|tests? todo)/u;

const relay = (from: NodeJS.ReadableStream, to: NodeJS.WritableStream, kept: string[]): Promise<void> =>
  new Promise((done) => {
    const lines = createInterface({ input: from, crlfDelay: Infinity });
    lines.on('line', (line) => {
      to.write(`${line}\n`);
      if (FAILED.test(line) || SUMMARY.test(line)) kept.push(line);
    });
    lines.on('close', done);
  });

const lane = (cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, kept: string[]): Promise<number> =>
  new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['inherit', 'pipe', 'pipe'] });
    const relayed = Promise.all([relay(child.stdout, process.stdout, kept), relay(child.stderr, process.stderr, kept)]);
    child.on('error', (e) => { console.error(`npm test: ${cmd}: ${e.message}`); done(1); });
    child.on('close', (code, signal) => void relayed.then(() => done(code ?? (signal ? 1 : 0))));
  });

/**
 * runs each lane's command at once; the first failing lane's status, else 0. With more than one
 * lane, each lane's summary and failed tests are said again at the end, where a reader of the
 * output's tail looks (a lane that ended first printed its own far above).
 */
export const runLanes = async (lanes: readonly (readonly string[])[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> => {
  const kept = lanes.map((): string[] => []);
  const codes = await Promise.all(lanes.map(([cmd, ...args], i) => lane(cmd!, args, cwd, env, kept[i]!)));
  if (lanes.length > 1) {
    console.log('\nnpm test: the lanes ran side by side (spec/run/schedule.ts); each lane\'s result:');
    kept.forEach((lines, i) => console.log(`  lane ${i + 1} (exit ${codes[i]}):\n${lines.join('\n')}`));
  }
  return codes.find((c) => c !== 0) ?? 0;
};
