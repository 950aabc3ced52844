import test from 'ava';
import type { DispatchEvent } from '../../journal/dispatch-events.js';
import { evolveRunMachines, NO_RUN_MACHINES, type RunMachines } from '../../projections/run-machines.js';
import { evolveRunPins, NO_PINS, type RunPins } from '../../projections/run-pins.js';
import type { Projects } from '../../projections/projects.js';
import { evolveWorkers, NO_WORKERS } from '../../projections/workers.js';
import { machineViewOf, type MachineSource } from '../../lib/read-models/machine-view.js';
import { running } from '../helpers/given.js';

// get_run's `machine` from the dispatch journal's history (docs/workers.md): where each step ran,
// why there, and why it moved (a second worker's claim after the first one's lease lapsed); where
// the next step goes. A hub with no worker gives none, so a one-machine run reads as before.

const t0 = '2026-11-27T10:00:00.000Z';
const t1 = '2026-11-27T10:00:01.000Z';
const workers = [
  { type: 'WorkerTokenCreated' as const, data: { workerId: 'wa', name: 'desk', publicKey: 'UA' } },
  { type: 'WorkerTokenCreated' as const, data: { workerId: 'wb', name: 'vps', publicKey: 'UB' } },
].reduce(evolveWorkers, NO_WORKERS);
const fold = (es: readonly (DispatchEvent & { at: string })[]): RunMachines => es.reduce(evolveRunMachines, NO_RUN_MACHINES);
const source = (machines: RunMachines, pins: RunPins = NO_PINS, runOn?: string): MachineSource => ({
  machines: { current: machines }, placement: { current: pins }, workers: { current: workers },
  projects: { current: new Map([['p', { id: 'p', ...(runOn ? { runOn } : {}) }]]) as unknown as Projects },
});

test('no worker, no dispatch, no pin: no machine at all', (t) => {
  t.is(machineViewOf({ ...source(NO_RUN_MACHINES), workers: { current: NO_WORKERS } }, running()), undefined);
});

test("a step the project's Run on sent to desk, taken over by vps when desk's lease lapsed", (t) => {
  const machines = fold([
    { type: 'StepDispatched', data: { runId: 'r1', stepId: 's1' }, at: t0 },
    { type: 'StepClaimed', data: { stepId: 's1', workerId: 'wa', token: 1 }, at: t0 },
    { type: 'StepClaimed', data: { stepId: 's1', workerId: 'wb', token: 2 }, at: t1 },
  ]);
  const view = machineViewOf(source(machines, NO_PINS, 'wb'), running())!;
  t.deepEqual(view.current, { workerId: 'wb', name: 'vps' });
  t.deepEqual(view.next, { workerId: 'wb', name: 'vps', why: "the project's Run on" });
  t.deepEqual(view.steps, [{ stepId: 's1', workerId: 'wb', name: 'vps', why: "the project's Run on", movedFrom: [{ workerId: 'wa', name: 'desk', why: 'its lease lapsed (the worker stopped answering)' }] }]);
});

test('a run moved before its step was dispatched says who moved it; moved back here, its next step goes here', (t) => {
  const machines = fold([
    { type: 'StepDispatched', data: { runId: 'r1', stepId: 's1' }, at: t1 },
    { type: 'StepClaimed', data: { stepId: 's1', workerId: 'wa', token: 1 }, at: t1 },
  ]);
  const by = { kind: 'person' as const, name: 'ann' };
  const pinned = evolveRunPins(NO_PINS, { type: 'RunMovedTo', data: { runId: 'r1', to: 'wa', by }, at: t0 });
  const view = machineViewOf(source(machines, pinned), running())!;
  t.like(view.steps[0], { workerId: 'wa', name: 'desk', why: 'moved there by person ann' });
  t.deepEqual(view.next, { workerId: 'wa', name: 'desk', why: 'moved by person ann' });
  const back = evolveRunPins(pinned, { type: 'RunMovedTo', data: { runId: 'r1', to: 'here', by }, at: t1 });
  t.deepEqual(machineViewOf(source(machines, back), running())!.next, { workerId: null, name: 'this machine', why: 'moved by person ann' });
});

test('a step waiting for its worker, which is away, says since when and what frees it; a claim, or the step ending, clears it', (t) => {
  const waited = fold([
    { type: 'StepDispatched', data: { runId: 'r1', stepId: 's1' }, at: t0 },
    { type: 'StepAwaitingWorker', data: { stepId: 's1', workerId: 'wa' }, at: t0 },
    { type: 'StepAwaitingWorker', data: { stepId: 's1', workerId: 'wa' }, at: t1 },
  ]);
  const view = machineViewOf(source(waited, NO_PINS, 'wa'), running())!;
  t.deepEqual(view.waiting, { workerId: 'wa', name: 'desk', stepId: 's1', since: t0, why: 'desk is away: the step waits in its queue until it is back; Move to… another machine or here runs it there instead' });
  t.deepEqual(view.steps, [], 'it ran nowhere yet');
  const claimed = fold([{ type: 'StepDispatched', data: { runId: 'r1', stepId: 's1' }, at: t0 },
    { type: 'StepAwaitingWorker', data: { stepId: 's1', workerId: 'wa' }, at: t0 }, { type: 'StepClaimed', data: { stepId: 's1', workerId: 'wa', token: 1 }, at: t1 }]);
  t.is(machineViewOf(source(claimed, NO_PINS, 'wa'), running())!.waiting, undefined);
  const recalled = evolveRunMachines(waited, { type: 'StepRecalled', data: { stepId: 's1', reason: 'moved' }, at: t1 });
  t.is(machineViewOf(source(recalled, NO_PINS, 'wa'), running())!.waiting, undefined);
});
