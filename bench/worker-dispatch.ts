import { benchTmp, median, now, row, type BenchResult } from './common.js';
import { startHosts, type Hosts } from './worker-hosts.js';
import { growHistory } from '../spec/helpers/big-history.js';

// What sending a step to a worker adds (issue 28: under 50 ms plus the bundle's transfer): a short
// agent step (the stand-in harness, which ends at once) run on a worker in its own network
// namespace, against the same step run here, rounds alternating. A step's time is the journal's:
// StepStarted to StepSucceeded, so it holds the dispatch (StepDispatched, the run folder's
// snapshot and bundle, the job), the worker's claim, bundle fetch and folder, its turn, and the
// way back (the worker's snapshot and bundle, the hub's fetch, the result through the fence).
// The project's repository is one small commit: its bundle is a few hundred bytes, so its
// transfer is a small part of what is measured. Then the bytes moved per step with a large
// history (incremental bundles, docs/workers.md "What moves"): 300 commits of generated files are
// added, and runs go to the worker one after another; the hub's run log says each bundle's size.

const BENCH = 'worker-dispatch';
const ROUNDS = 9;
const BIG_RUNS = 4;

// what the hub's run log says went to the worker and came back, in bytes
const bytesOf = async (hosts: Hosts, runId: string): Promise<{ sent: number; back: number }> => {
  const lines = ((await (await fetch(`${hosts.server.url}/api/runs/${runId}/log?pageSize=200`)).json()) as { lines: { text: string }[] }).lines.map((l) => l.text);
  const sum = (re: RegExp) => lines.reduce((n, l) => n + Number(re.exec(l)?.[1] ?? 0), 0);
  return { sent: sum(/the step's code goes to worker \S+ as a (?:whole )?bundle of (\d+) bytes/), back: sum(/the worker's work came back as a bundle of (\d+) bytes/) };
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const hosts = await startHosts(benchTmp(BENCH), 1, 1);
  const local: number[] = [];
  const remote: number[] = [];
  const phases: (readonly number[])[] = [];
  const big: { sent: number; back: number; ms: number }[] = [];
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
    growHistory(hosts.repo, 300, 20_000);
    for (let r = 0; r < BIG_RUNS; r++) {
      const w = await hosts.step(`big history ${r}`, hosts.workers[0]!);
      big.push({ ...(await bytesOf(hosts, w.runId)), ms: w.stepMs });
    }
  } finally {
    await hosts.close();
  }
  const l = median(local);
  const w = median(remote);
  const later = big.slice(1);
  return {
    bench: BENCH,
    rows: [
      row({ bench: BENCH, measure: 'a short agent step on a worker (own netns), StepStarted to StepSucceeded', measured: w, baseline: l, unit: 'ms', baselineLabel: 'the same step run here' }),
      row({ bench: BENCH, measure: 'what dispatching adds per step (worker − here)', measured: w - l, baseline: 50, unit: 'ms', baselineLabel: "the issue's 50 ms budget (+ bundle transfer)", target: { op: '<', value: 1 } }),
      row({ bench: BENCH, measure: 'bytes sent to the worker for a later step, 300 commits of history (median of the runs after the first)', measured: median(later.map((x) => x.sent)), baseline: big[0]!.sent, unit: 'bytes', baselineLabel: 'the first step after the history grew (the worker\'s cache had none of it)', target: { op: '<', value: 0.01 } }),
      row({ bench: BENCH, measure: 'bytes of a step\'s work sent back, 300 commits of history (median of every run)', measured: median(big.map((x) => x.back)), baseline: big[0]!.sent, unit: 'bytes', baselineLabel: 'the first step\'s bundle', target: { op: '<', value: 0.01 } }),
    ],
    notes: [
      `bytes moved per step with 300 commits (about 6 MB of generated files) added: sent ${big.map((x) => x.sent).join(', ')}, back ${big.map((x) => x.back).join(', ')}; step times ${big.map((x) => x.ms.toFixed(0)).join(', ')} ms (first step, then later runs)`,
      `where a dispatched step's time goes (medians, ms): started→dispatched ${median(phases.map((p) => p[0]!)).toFixed(0)} (snapshot, bundle), dispatched→claimed ${median(phases.map((p) => p[1]!)).toFixed(0)} (the job to the worker, its claim), claimed→result applied ${median(phases.map((p) => p[2]!)).toFixed(0)} (bundle fetch, folder, the turn, the way back), applied→ended ${median(phases.map((p) => p[3]!)).toFixed(0)} (the hub takes the worker's bundle, step end)`,
      `median of ${ROUNDS} alternating rounds: worker ${w.toFixed(0)} ms (${remote.map((x) => x.toFixed(0)).join(', ')}), here ${l.toFixed(0)} ms (${local.map((x) => x.toFixed(0)).join(', ')}); the stand-in harness on both sides`,
    ],
    seconds: (now() - started) / 1000,
  };
};
