import type { Actor } from '../domain/runs.js';
import type { PlacementEvent } from '../journal/placement-events.js';

// Each run's pin, folded from the 'placement' journal: the machine a person moved the run to
// ('here' or a worker's id), who did, and when. It wins over the project's "Run on" for the run's
// next agent steps (lib/root/workers-pool.ts).

export interface RunPin {
  readonly to: string;
  readonly by: Actor;
  readonly at: string;
}

export type RunPins = ReadonlyMap<string, RunPin>;

export const NO_PINS: RunPins = new Map();

export const evolveRunPins = (s: RunPins, e: PlacementEvent & { readonly at?: string }): RunPins => {
  switch (e.type) {
    case 'RunMovedTo': return new Map(s).set(e.data.runId, { to: e.data.to, by: e.data.by, at: e.at ?? '' });
  }
};
