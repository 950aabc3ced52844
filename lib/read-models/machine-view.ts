import type { Projects } from '../../projections/projects.js';
import type { RunPins } from '../../projections/run-pins.js';
import type { MachineRef, MachineView, RunMachines, StepMachineView, StepPlacement } from '../../projections/run-machines.js';
import type { RunState } from '../../projections/run-state.js';
import type { Workers } from '../../projections/workers.js';

// A run's `machine` as get_run and the run page read it (docs/workers.md): where each step that went
// to a worker ran, why there (the run was moved there, or its project runs there), and why it moved
// (another worker took it once its lease lapsed); and where the next step goes. A hub with no
// worker, and a run that never left this machine nor was moved, have none: a one-machine run reads
// as before.

export interface MachineSource {
  readonly machines: { readonly current: RunMachines };
  readonly placement: { readonly current: RunPins };
  readonly workers: { readonly current: Workers };
  readonly projects: { readonly current: Projects };
}

export const HERE: MachineRef = { workerId: null, name: 'this machine' };

const who = (by: { readonly kind: string; readonly name?: string }): string => (by.name ? `${by.kind} ${by.name}` : `a ${by.kind}`);

const refOf = (src: MachineSource, id: string): MachineRef => (id === 'here' ? HERE : { workerId: id, name: src.workers.current.get(id)?.name ?? id });

const stepView = (src: MachineSource, s: RunState, p: StepPlacement): StepMachineView | null => {
  const last = p.claims.at(-1);
  if (!last) return null;
  const pin = src.placement.current.get(s.runId);
  const runOn = src.projects.current.get(s.projectId)?.runOn;
  const why = pin && pin.to === last.workerId && pin.at <= p.dispatchedAt ? `moved there by ${who(pin.by)}`
    : runOn === last.workerId ? "the project's Run on" : undefined;
  const before = p.claims.slice(0, -1).filter((c) => c.workerId !== last.workerId);
  const movedFrom = before.map((c) => ({ ...refOf(src, c.workerId), why: 'its lease lapsed (the worker stopped answering)' }));
  return { stepId: p.stepId, ...refOf(src, last.workerId), ...(why ? { why } : {}), ...(movedFrom.length ? { movedFrom } : {}), ...(p.ended === 'lost' ? { lost: p.lostReason ?? 'worker lost' } : {}) };
};

const nextOf = (src: MachineSource, s: RunState): MachineView['next'] => {
  const pin = src.placement.current.get(s.runId);
  if (pin) return { ...refOf(src, pin.to), why: `moved by ${who(pin.by)}` };
  const runOn = src.projects.current.get(s.projectId)?.runOn;
  return runOn && runOn !== 'here' ? { ...refOf(src, runOn), why: "the project's Run on" } : { ...HERE, why: 'the default' };
};

// a step placed on one worker only, whose worker is not online: it waits in that worker's queue
// until the worker is back, and the person can send it elsewhere instead
const waitingOf = (src: MachineSource, ids: readonly string[]): MachineView['waiting'] => {
  const p = ids.map((id) => src.machines.current.steps.get(id)).find((x) => x && !x.ended && x.awaiting);
  if (!p?.awaiting) return undefined;
  const ref = refOf(src, p.awaiting.workerId);
  const why = `${ref.name} is away: the step waits in its queue until it is back; Move to… another machine or here runs it there instead`;
  return { ...ref, stepId: p.stepId, since: p.awaiting.since, why };
};

export const machineViewOf = (src: MachineSource, s: RunState): MachineView | undefined => {
  const ids = src.machines.current.byRun.get(s.runId) ?? [];
  const steps = ids.map((id) => src.machines.current.steps.get(id)).flatMap((p) => (p ? [stepView(src, s, p)] : [])).filter((v): v is StepMachineView => v !== null);
  if (src.workers.current.size === 0 && steps.length === 0 && !src.placement.current.has(s.runId)) return undefined;
  // the latest step: the one in flight or the last one ended; a later step that stayed here (no dispatch) makes it here
  const latest = s.step?.stepId ?? s.views.board.sandbox?.stepId;
  const current = latest ? steps.find((v) => v.stepId === latest) : steps.at(-1);
  const waiting = s.lifecycle === 'active' ? waitingOf(src, ids) : undefined;
  return { current: current ? { workerId: current.workerId, name: current.name } : HERE, next: nextOf(src, s), steps, ...(waiting ? { waiting } : {}) };
};
