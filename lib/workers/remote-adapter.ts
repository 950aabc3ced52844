import type { HarnessName } from '../../domain/workflow.js';
import type { HarnessAdapter, TurnInput } from '../harness/adapter.js';
import type { Dispatcher } from './dispatcher.js';
import type { PlacementAsk } from './placement.js';

// The adapter seam, not a second engine (docs/workers.md): a harness adapter whose turn is
// dispatched to a worker, which runs it with its own local adapter. The engine starts it and reads
// its result as it does a local turn's. Where it runs is placed by the hub when the turn starts
// (`ask`, read then: the run's previous machine may have changed since the step began). A message
// mid-turn is not carried to the worker yet: it is held for the step's next turn, as for a CLI that
// cannot take one.

export const remoteAdapter = (name: HarnessName, ask: () => PlacementAsk, dispatcher: () => Promise<Dispatcher>, egress: (tools: TurnInput['tools']) => readonly string[]): HarnessAdapter => ({
  name,
  // whether a worker has the harness ready is what it announced when it joined (placement reads it)
  check: async () => ({ _tag: 'Ready' }),
  startTurn: (input) => ({
    result: dispatcher().then((d) => d.start(input, name, ask(), egress(input.tools))),
    send: () => false,
  }),
});
