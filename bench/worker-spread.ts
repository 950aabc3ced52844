import { isLeft } from 'fp-ts/lib/Either.js';
import { benchTmp, now, row, sleep, type BenchResult } from './common.js';
import { BY } from './service-setup.js';
import { startHosts, type Hosts } from './worker-hosts.js';

// 100 short steps over 3 workers against the same 100 over 1 (issue 28), each worker in its own
// network namespace with 2 slots. Each step is one run of one agent step with the stand-in harness
// taking 1 s (`[sleep:1000]`, as an agent's turn takes time); runs are sent to the workers in turn
// with "Move to…" (placement other than pinning is another helper's work), all started at once,
// and the time is from the first start to the last run's end. The hub (journal, snapshots,
// bundles) and the three workers share this machine's 2 cores: the ratio says what spreading
// gains here, not on three real machines.

const BENCH = 'worker-spread';
const STEPS = 100;
const SLOTS = 2;

const spread = async (hosts: Hosts, over: readonly string[]): Promise<number> => {
  const s = hosts.server.service;
  const ids: string[] = [];
  for (let i = 0; i < STEPS; i++) {
    const r = s.startRun({ project: hosts.projectId, goal: `step ${i} [sleep:1000]`, workflow: 'linear', start: false }, BY);
    if (isLeft(r)) throw new Error(JSON.stringify(r.left));
    const m = s.moveRun(r.right.runId, over[i % over.length]!, BY);
    if (isLeft(m)) throw new Error(JSON.stringify(m.left));
    ids.push(r.right.runId);
  }
  const t0 = now();
  for (const id of ids) {
    const c = s.control(id, { action: 'Resume', position: `v${s.core.runs.get(id)!.seq}` }, BY);
    if (isLeft(c)) throw new Error(JSON.stringify(c.left));
  }
  const end = t0 + 600_000;
  while (ids.some((id) => s.core.runs.get(id)!.lifecycle !== 'ended')) {
    if (now() > end) throw new Error('not all ended within 10 minutes');
    await sleep(50);
  }
  const failed = ids.filter((id) => s.core.runs.get(id)!.ending !== 'Succeeded');
  if (failed.length) throw new Error(`${failed.length} runs did not succeed`);
  return now() - t0;
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const hosts = await startHosts(benchTmp(BENCH), 3, SLOTS);
  let one = 0;
  let three = 0;
  try {
    one = await spread(hosts, [hosts.workers[0]!]);
    three = await spread(hosts, hosts.workers);
  } finally {
    await hosts.close();
  }
  return {
    bench: BENCH,
    rows: [row({ bench: BENCH, measure: `${STEPS} one-second steps over 3 workers (${SLOTS} slots each)`, measured: three, baseline: one, unit: 'ms', baselineLabel: 'the same over 1 worker', target: { op: '<', value: 0.5 } })],
    notes: [`over 1 worker ${(one / 1000).toFixed(1)} s, over 3 ${(three / 1000).toFixed(1)} s (ideal with ${SLOTS} slots each: ${STEPS / SLOTS} s and ${Math.ceil(STEPS / SLOTS / 3)} s of turns); the stand-in harness`],
    seconds: (now() - started) / 1000,
  };
};
