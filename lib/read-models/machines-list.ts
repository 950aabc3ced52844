import { hostname } from 'node:os';
import { effectiveRunCap } from '../../domain/settings.js';
import type { RunState } from '../../projections/run-state.js';
import { knownProbe } from '../sandbox/probe.js';
import type { Settings } from '../../domain/settings.js';
import type { RunMachines } from '../../projections/run-machines.js';

/** what the list reads besides the pool's rows: the service core is one */
export interface MachinesSource {
  readonly runs: { all(): Iterable<RunState> };
  readonly machines: { readonly current: RunMachines };
  readonly settings: { readonly current: Settings };
  readonly availability: ReadonlyMap<string, { readonly _tag: string }>;
}

// The Machines page's read (GET /api/workers, MCP list_workers; docs/workers.md): each worker's
// row as the pool lists it, with the runs whose step it holds now, and this machine's own row
// (`here`): the runs whose step runs here, its run cap as slots, the harnesses ready here.

/** `waitingSince`: the step waits for this worker, which is away (docs/workers.md) */
export interface MachineRun { readonly runId: string; readonly title: string; readonly step: string; readonly waitingSince?: string }

export interface HereRow {
  readonly name: string;
  readonly host: string;
  readonly slots: number;
  readonly slotsInUse: number;
  readonly harnesses: readonly string[];
  readonly sandbox: boolean | null;
  readonly runs: readonly MachineRun[];
}

/** where a run's step in flight is: a worker's id (the one holding it, or the one it waits for), 'queued' (dispatched, not claimed yet), or 'here' */
const placeOf = (core: MachinesSource, s: RunState): { place: string; waitingSince?: string } => {
  const p = s.step ? core.machines.current.steps.get(s.step.stepId) : undefined;
  if (!p || p.ended) return { place: 'here' };
  if (p.awaiting) return { place: p.awaiting.workerId, waitingSince: p.awaiting.since };
  return { place: p.claims.at(-1)?.workerId ?? 'queued' };
};

/** the runs whose step is in flight, by where it is */
const runsByPlace = (core: MachinesSource): Map<string, MachineRun[]> => {
  const by = new Map<string, MachineRun[]>();
  for (const s of core.runs.all()) {
    if (s.lifecycle !== 'active' || !s.step || (s.step.kind !== 'agent' && s.step.kind !== 'command')) continue;
    const { place, waitingSince } = placeOf(core, s);
    by.set(place, [...(by.get(place) ?? []), { runId: s.runId, title: s.title, step: s.step.node, ...(waitingSince ? { waitingSince } : {}) }]);
  }
  return by;
};

export const withRuns = <W extends { readonly workerId: string }>(core: MachinesSource, listed: { readonly workers: readonly W[]; readonly hub: string | null }) => {
  const by = runsByPlace(core);
  const probe = knownProbe();
  const here: HereRow = {
    name: 'this machine', host: hostname(), slots: effectiveRunCap(core.settings.current), slotsInUse: by.get('here')?.length ?? 0,
    harnesses: [...core.availability.entries()].filter(([, a]) => a._tag === 'Ready').map(([h]) => h),
    sandbox: probe ? probe._tag === 'Ready' : null, runs: by.get('here') ?? [],
  };
  return { ...listed, workers: listed.workers.map((w) => ({ ...w, runs: by.get(w.workerId) ?? [] })), here };
};
