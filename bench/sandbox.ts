import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LIFELINE } from '../lib/harness/process.js';
import { bwrapBin, probeBwrap } from '../lib/sandbox/probe.js';
import { openStepSandbox } from '../lib/sandbox/sandbox.js';
import { benchTmp, gitRepo, median, now, removeDir, row, type BenchResult, timed } from './common.js';

// What svc's sandbox adds to the start of a turn: open the step's sandbox (profile, egress proxy on
// its unix socket), start bubblewrap around the lifeline (which starts the egress bridge inside)
// and a program that exits at once (`true`: the CLI's own start is the same either way), and
// close it; against the same lifeline and program started as an unsandboxed turn is. Rounds
// alternate. The budget for the difference is 50 ms per turn.

const BENCH = 'sandbox';
const ROUNDS = 15;

const exits = (file: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true });
    let err = '';
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${err}`))));
  });

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const probe = await probeBwrap(bwrapBin());
  if (probe._tag !== 'Ready') return { bench: BENCH, rows: [], notes: [`bubblewrap cannot start here: ${probe.reason}`], seconds: (now() - started) / 1000 };
  const dir = benchTmp(BENCH);
  const repo = gitRepo(join(dir, 'repo'));
  const env = { ...process.env };
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plain.push(await timed(() => exits(process.execPath, [LIFELINE, 'true'], env, repo)));
    boxed.push(await timed(async () => {
      const sandbox = openStepSandbox({
        bwrap: probe.bwrap, tool: 'command', checkouts: [repo], writable: true, hidden: [], env,
        programs: [process.execPath, LIFELINE], egress: { allow: [] }, onRefused: () => undefined,
      });
      const w = sandbox.wrap(process.execPath, [LIFELINE, 'true'], env);
      await exits(w.file, w.args, w.env, repo);
      await sandbox.close();
    }));
  }
  removeDir(dir);
  const p = median(plain);
  const b = median(boxed);
  return {
    bench: BENCH,
    rows: [
      row({ bench: BENCH, measure: 'a turn\'s start in svc\'s sandbox (open, bwrap, lifeline + egress bridge, close)', measured: b, baseline: p, unit: 'ms', baselineLabel: 'the same lifeline and program unsandboxed', target: { op: '<', value: 3 } }),
      row({ bench: BENCH, measure: 'what the sandbox adds per turn', measured: b - p, baseline: 50, unit: 'ms', baselineLabel: 'the issue\'s 50 ms budget', target: { op: '<', value: 1 } }),
    ],
    notes: [`median of ${ROUNDS} alternating rounds: sandboxed ${b.toFixed(1)} ms, unsandboxed ${p.toFixed(1)} ms (${probe.version})`],
    seconds: (now() - started) / 1000,
  };
};
