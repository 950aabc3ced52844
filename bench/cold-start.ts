import { isLeft } from 'fp-ts/lib/Either.js';
import { open } from 'lmdb';
import { join } from 'node:path';
import type { Journal } from '../journal/journal.js';
import type { RunEvent } from '../journal/run-events.js';
import type { Store } from '../journal/store.js';
import { closeService, openService } from '../lib/root/open.js';
import { decideCreateRun } from '../commands/create-run.js';
import type { Service } from '../lib/root/service.js';
import { openRuns } from '../lib/state/run-stream.js';
import type { Workflow } from '../domain/workflow.js';
import { benchTmp, gc, heapAfterGc, median, now, removeDir, replyText, row, type BenchResult } from './common.js';
import { BY, appendRun, benchService } from './service-setup.js';

// A store of 10,000 runs (~100 events each, written through the run streams so every run has its
// snapshot), then: openService (engine off) against opening the bare LMDB environment and reading
// one key, and against reading every snapshot raw; and how long folding the journal would take
// without snapshots (1,000 runs folded, extrapolated to all), against loading the same runs from
// their snapshots. The page cache is warm (the data was just written): this is process start.

const BENCH = 'cold-start';
const RUNS = 10_000;
const EVENTS_PER_RUN = 100;
const RUNS_PER_COMMIT = 50;
const WRITE_BUDGET_S = 100;
const FOLD_SAMPLE = 1_000;
const REPS = 5;

const runEvents = (runId: string, projectId: string, workflow: Workflow, n: number): RunEvent[] => {
  const created = decideCreateRun({ runId, projectId, workflow, input: { project: projectId, goal: `cold start run ${runId}`, workflow: 'linear' }, by: BY });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  const step = 'step-1';
  const head: RunEvent[] = [...created.right, { type: 'RunStarted', data: { node: 'work' } }, { type: 'WorktreesPrepared', data: { checkouts: [] } },
    { type: 'StepStarted', data: { stepId: step, node: 'work', kind: 'agent', attempt: 1 } }, { type: 'StepSessionStarted', data: { stepId: step, sessionId: `s-${runId}` } }];
  const tail: RunEvent[] = [{ type: 'OutcomeReported', data: { stepId: step, outcome: 'success', summary: 'done' } },
    { type: 'StepSucceeded', data: { stepId: step, node: 'work', summary: 'done' } }, { type: 'RunSucceeded', data: { summary: 'done' } }];
  const replies = Math.max(0, n - head.length - tail.length);
  return [...head, ...Array.from({ length: replies }, (_, i): RunEvent => ({ type: 'AgentReplied', data: { stepId: step, text: replyText(i) } })), ...tail];
};

/** Writes the data set; fewer events per run for the rest when the first runs show it would take too long. */
const write = (service: Service, projectId: string): { events: number; seconds: number; perRun: number[] } => {
  const project = service.core.projects.current.get(projectId)!;
  const wf = service.core.workflows.load(project, 'linear');
  if (isLeft(wf)) throw new Error(wf.left);
  const t = now();
  let events = 0;
  let perRun = EVENTS_PER_RUN;
  const used = new Set<number>();
  for (let i = 0; i < RUNS; i += RUNS_PER_COMMIT) {
    service.core.store.root.transactionSync(() => {
      for (let j = i; j < Math.min(RUNS, i + RUNS_PER_COMMIT); j++) {
        const runId = service.core.newId('r');
        const evs = runEvents(runId, projectId, wf.right, perRun);
        if (!appendRun(service, runId, evs, 0)) throw new Error('stale');
        events += evs.length;
        used.add(evs.length);
      }
    });
    if (i + RUNS_PER_COMMIT === 500) {
      const projected = ((now() - t) / 1000) * (RUNS / 500);
      if (projected > WRITE_BUDGET_S) perRun = Math.max(20, Math.floor((EVENTS_PER_RUN * WRITE_BUDGET_S) / projected));
    }
  }
  return { events, seconds: (now() - t) / 1000, perRun: [...used] };
};

const lmdbOptions = { maxDbs: 64, compression: false, mapSize: 2 * 1024 ** 3, eventTurnBatching: true } as const;

// Each timing starts after a GC, so one measurement does not pay for the garbage of the one before.
const bareOpen = async (path: string, key: string): Promise<number> => {
  gc();
  const t = now();
  const root = open({ path, ...lmdbOptions });
  const v = root.openDB({ name: 'heads' }).get(key);
  const ms = now() - t;
  if (typeof v !== 'number') throw new Error('no head');
  await root.close();
  return ms;
};

const snapshotScan = async (path: string): Promise<number> => {
  gc();
  const t = now();
  const root = open({ path, ...lmdbOptions });
  let n = 0;
  for (const { value } of root.openDB({ name: 'run-snapshots' }).getRange({})) if (value) n++;
  const ms = now() - t;
  await root.close();
  if (n < RUNS) throw new Error(`only ${n} snapshots`);
  return ms;
};

const timedOpen = async (home: string): Promise<{ ms: number; runs: number; heap: number }> => {
  const h = heapAfterGc();
  const t = now();
  const s = await openService({ home, engine: false });
  const ms = now() - t;
  const heap = heapAfterGc() - h;
  const runs = s.core.runs.size;
  await closeService(s);
  return { ms, runs, heap };
};

/** the run streams' load over the first `count` runs only, with their snapshots or with none (an empty db in their place). */
const loadSample = (service: Service, count: number, snapshots: boolean): number => {
  const journal = service.core.journal;
  const streams = journal.streams('run:').slice(0, count);
  const view = { streams: () => streams, read: journal.read.bind(journal) } as unknown as Journal;
  const store = { db: (name: string) => service.core.store.db(snapshots || name !== 'run-snapshots' ? name : 'bench-no-snapshots') } as unknown as Store;
  gc();
  const t = now();
  const runs = openRuns(view, store);
  runs.load();
  const ms = now() - t;
  if (runs.size !== count) throw new Error(`loaded ${runs.size} of ${count}`);
  return ms;
};

export const run = async (): Promise<BenchResult> => {
  const t0 = Date.now();
  const tmp = benchTmp(BENCH);
  const home = join(tmp, 'svc-home');
  const { service, projectId } = await benchService(home, tmp);
  const written = write(service, projectId);
  const someKey = service.core.journal.streams('run:')[0]!;
  const snapshotBytes = service.core.store.db('run-snapshots').getBinary(someKey)?.length ?? 0;
  const workflowBytes = JSON.stringify(service.core.runs.get(someKey.slice(4))?.workflow ?? {}).length;
  await closeService(service);

  const path = join(home, 'db');
  const opens: { ms: number; runs: number; heap: number }[] = [];
  const bare: number[] = [];
  const scans: number[] = [];
  for (let i = 0; i < REPS; i++) {
    opens.push(await timedOpen(home));
    bare.push(await bareOpen(path, someKey));
    scans.push(await snapshotScan(path));
  }
  if (opens.some((o) => o.runs !== RUNS)) throw new Error(`openService loaded ${opens.map((o) => o.runs).join('/')} runs`);

  const s = await openService({ home, engine: false });
  loadSample(s, 100, true); loadSample(s, 100, false); // warm-up
  const withSnap: number[] = [];
  const folded: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < REPS; i++) { withSnap.push(loadSample(s, FOLD_SAMPLE, true)); folded.push(loadSample(s, FOLD_SAMPLE, false)); loads.push(loadSample(s, RUNS, true)); }
  await closeService(s);
  removeDir(tmp);

  const openMs = median(opens.map((o) => o.ms));
  const scale = RUNS / FOLD_SAMPLE;
  const total = written.events.toLocaleString('en-US');
  const reduced = written.perRun.length > 1 || written.perRun[0] !== EVENTS_PER_RUN;
  const rows = [
    row({ bench: BENCH, measure: `openService, ${RUNS.toLocaleString('en-US')} runs / ${total} events`, measured: openMs, baseline: median(bare), unit: 'ms', baselineLabel: 'bare LMDB open + one get' }),
    row({ bench: BENCH, measure: 'openService (same)', measured: openMs, baseline: median(scans), unit: 'ms', baselineLabel: 'bare open + read every snapshot', target: { op: '<', value: 3 } }),
    row({ bench: BENCH, measure: `the run streams' load alone, ${RUNS.toLocaleString('en-US')} runs from snapshots`, measured: median(loads), baseline: median(scans), unit: 'ms', baselineLabel: 'bare open + read every snapshot' }),
    row({ bench: BENCH, measure: `rebuild without snapshots (${FOLD_SAMPLE.toLocaleString('en-US')} runs folded, ×${scale})`, measured: median(folded) * scale, baseline: median(loads), unit: 'ms', baselineLabel: `the run streams' load, all from snapshots`, target: { op: '>', value: 5 } }),
  ];
  return {
    bench: BENCH, rows, seconds: (Date.now() - t0) / 1000,
    notes: [
      `data set: ${RUNS.toLocaleString('en-US')} runs, ${total} events (${written.perRun.join('/')} per run${reduced ? `, REDUCED from ${EVENTS_PER_RUN} to stay within ~${WRITE_BUDGET_S} s` : ''}), written through the run streams in ${written.seconds.toFixed(1)} s, ${RUNS_PER_COMMIT} runs per durable commit`,
      `one run's snapshot is ${snapshotBytes.toLocaleString('en-US')} B of msgpack; the workflow it carries is ${workflowBytes.toLocaleString('en-US')} B as JSON`,
      `openService median of ${REPS} (${opens.map((o) => o.ms.toFixed(0)).join(', ')} ms, the first in a fresh process); heap held after open ${(median(opens.map((o) => o.heap)) / 1024 ** 2).toFixed(0)} MiB`,
      `the rebuild row is the time the run streams' load would take with no snapshot (measured on ${FOLD_SAMPLE} runs, ×${scale}; the same ${FOLD_SAMPLE} runs from snapshots: ${median(withSnap).toFixed(0)} ms); ratio > 5 means snapshots make start at least 5× faster. The target on openService is this author's: start costs under 3× reading the snapshots raw`,
    ],
  };
};
