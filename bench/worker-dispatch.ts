import { benchTmp, median, now, row, type BenchResult } from './common.js';
import { startHosts } from './worker-hosts.js';

// What sending a step to a worker adds (issue 28: under 50 ms plus the bundle's transfer): a short
// agent step (the stand-in harness, which ends at once) run on a worker in its own network
// namespace, against the same step run here, rounds alternating. A step's time is the journal's:
// StepStarted to StepSucceeded, so it holds the dispatch (StepDispatched, the run folder's
// snapshot and bundle, the job), the worker's claim, bundle fetch and folder, its turn, and the
// way back (the worker's snapshot and bundle, the hub's fetch, the result through the fence).
// The project's repository is one small commit: its bundle is a few hundred bytes, so its
// transfer is a small part of what is measured.

const BENCH = 'worker-dispatch';
const ROUNDS = 9;

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const hosts = await startHosts(benchTmp(BENCH), 1, 1);
  const local: number[] = [];
  const remote: number[] = [];
  const phases: (readonly number[])[] = [];
  try {
    // one of each first, unmeasured: the worker's and the hub's first turn pay for loading code
    await hosts.step('warm up', 'here');
    await hosts.step('warm up', hosts.workers[0]!);
    for (let r = 0; r < ROUNDS; r++) {
      local.push((await hosts.step(`short step ${r}`, 'here')).stepMs);
      const w = await hosts.step(`short step ${r}`, hosts.workers[0]!);
      remote.push(w.stepMs);
      phases.push(w.phases);
    }
  } finally {
    await hosts.close();
  }
  const l = median(local);
  const w = median(remote);
  return {
    bench: BENCH,
    rows: [
      row({ bench: BENCH, measure: 'a short agent step on a worker (own netns), StepStarted to StepSucceeded', measured: w, baseline: l, unit: 'ms', baselineLabel: 'the same step run here' }),
      row({ bench: BENCH, measure: 'what dispatching adds per step (worker − here)', measured: w - l, baseline: 50, unit: 'ms', baselineLabel: "the issue's 50 ms budget (+ bundle transfer)", target: { op: '<', value: 1 } }),
    ],
    notes: [
      `where a dispatched step's time goes (medians, ms): started→dispatched ${median(phases.map((p) => p[0]!)).toFixed(0)} (snapshot, bundle), dispatched→claimed ${median(phases.map((p) => p[1]!)).toFixed(0)} (the job to the worker, its claim), claimed→result applied ${median(phases.map((p) => p[2]!)).toFixed(0)} (bundle fetch, folder, the turn, the way back), applied→ended ${median(phases.map((p) => p[3]!)).toFixed(0)} (the hub takes the worker's bundle, step end)`,
      `median of ${ROUNDS} alternating rounds: worker ${w.toFixed(0)} ms (${remote.map((x) => x.toFixed(0)).join(', ')}), here ${l.toFixed(0)} ms (${local.map((x) => x.toFixed(0)).join(', ')}); the stand-in harness on both sides`,
    ],
    seconds: (now() - started) / 1000,
  };
};
