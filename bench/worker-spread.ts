import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
// SVC_BENCH_SPREAD_STEPS: fewer steps to try a change quickly
const STEPS = Number(process.env['SVC_BENCH_SPREAD_STEPS'] ?? 100);
const SLOTS = 2;

interface Spread { readonly ms: number; readonly hubCpu: number; readonly hubGit: number; readonly workersCpu: number }

const spread = async (hosts: Hosts, over: readonly string[]): Promise<Spread> => {
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
  const cpu0 = hosts.cpu();
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
  const ms = now() - t0;
  const cpu1 = hosts.cpu();
  const dump = process.env['SVC_BENCH_SPREAD_DUMP'];
  if (dump) writeFileSync(`${dump}-${over.length}.json`, JSON.stringify(timelines(hosts, ids)));
  return { ms, hubCpu: cpu1.hub - cpu0.hub, hubGit: cpu1.hubChildren - cpu0.hubChildren, workersCpu: cpu1.workers - cpu0.workers };
};

const cpuNote = (over: string, s: Spread): string =>
  `over ${over}: ${(s.ms / 1000).toFixed(1)} s; CPU per run: the hub ${(s.hubCpu / STEPS * 1000).toFixed(0)} ms and its git processes ${(s.hubGit / STEPS * 1000).toFixed(0)} ms, the workers ${(s.workersCpu / STEPS * 1000).toFixed(0)} ms (with their git and harness processes; the hub's nats-server not counted)`;

// each run's events and its steps' dispatch events, [type, ms since epoch], to see where time goes
const timelines = (hosts: Hosts, ids: readonly string[]) => {
  const j = hosts.server.service.core.journal;
  const dispatch = j.read('dispatch');
  return ids.map((id) => {
    const events = j.read(`run:${id}`);
    const steps = new Set(events.map((e) => (e.data as { stepId?: string }).stepId).filter(Boolean));
    const mine = dispatch.filter((e) => steps.has((e.data as { stepId?: string }).stepId));
    return [...events, ...mine].map((e) => [e.type, Date.parse(e.at)] as const).sort((a, b) => a[1] - b[1]);
  });
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const hosts = await startHosts(benchTmp(BENCH), 3, SLOTS);
  let one: Spread | undefined;
  let three: Spread | undefined;
  try {
    one = await spread(hosts, [hosts.workers[0]!]);
    three = await spread(hosts, hosts.workers);
  } finally {
    await hosts.close();
  }
  return {
    bench: BENCH,
    rows: [row({ bench: BENCH, measure: `${STEPS} one-second steps over 3 workers (${SLOTS} slots each)`, measured: three!.ms, baseline: one!.ms, unit: 'ms', baselineLabel: 'the same over 1 worker', target: { op: '<', value: 0.5 } })],
    notes: [
      `over 1 worker ${(one!.ms / 1000).toFixed(1)} s, over 3 ${(three!.ms / 1000).toFixed(1)} s (ideal with ${SLOTS} slots each: ${STEPS / SLOTS} s and ${Math.ceil(STEPS / SLOTS / 3)} s of turns); the stand-in harness`,
      cpuNote('1 worker', one!), cpuNote('3 workers', three!), `load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`,
    ],
    seconds: (now() - started) / 1000,
  };
};
