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

export interface LaneResult {
  readonly code: number;
  /** the lane's summary lines and failed tests, as ava printed them */
  readonly said: readonly string[];
}

/** runs each lane's command at once, to the end of every one */
export const runLanes = async (lanes: readonly (readonly string[])[], cwd: string, env: NodeJS.ProcessEnv): Promise<LaneResult[]> =>
  Promise.all(lanes.map(async ([cmd, ...args]) => {
    const said: string[] = [];
    return { code: await lane(cmd!, args, cwd, env, said), said };
  }));

/** each lane's summary and failed tests said again at the end, where a reader of the output's tail looks */
export const sayAgain = (results: readonly LaneResult[]): void => {
  console.log(`\nnpm test: ${results.length} lanes (spec/run/schedule.ts); each one's result:`);
  results.forEach((r, i) => console.log(`  lane ${i + 1} (exit ${r.code}):\n${r.said.join('\n')}`));
};
