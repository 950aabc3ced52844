import type { HarnessName } from '../../domain/workflow.js';
import type { HarnessAdapter, TurnInput } from '../harness/adapter.js';
import type { Dispatcher } from './dispatcher.js';

// The adapter seam, not a second engine (docs/workers.md): a harness adapter whose turn is
// dispatched to a worker, which runs it with its own local adapter. The engine starts it and reads
// its result as it does a local turn's. A message mid-turn is not carried to the worker yet: it is
// held for the step's next turn, as for a CLI that cannot take one.

export const remoteAdapter = (name: HarnessName, workerId: string, dispatcher: () => Promise<Dispatcher>, egress: (tools: TurnInput['tools']) => readonly string[]): HarnessAdapter => ({
  name,
  // whether the worker has the harness ready is what it announced when it joined
  check: async () => ({ _tag: 'Ready' }),
  startTurn: (input) => ({
    result: dispatcher().then((d) => d.start(input, name, workerId, egress(input.tools))),
    send: () => false,
  }),
});
