import * as t from 'io-ts';
import { ActorCodec } from './codec-util.js';

// Where a run's next agent steps run, when a person chose it for the run ("Move to…",
// docs/workers.md): one journal ('placement'), apart from the run's own so the run's state and the
// dispatch fence stay as they are. `to` is 'here' (this machine) or a worker's id.

export const PLACEMENT_EVENT_CODECS = {
  RunMovedTo: t.type({ runId: t.string, to: t.string, by: ActorCodec }),
} as const;

type Codecs = typeof PLACEMENT_EVENT_CODECS;
export type PlacementEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
