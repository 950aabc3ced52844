import type { HarnessName } from '../../domain/workflow.js';
import type { HarnessAdapter, TurnInput, TurnResult } from '../harness/adapter.js';
import { dropDispatchRef } from './run-bundle.js';
import type { Dispatcher } from './dispatcher.js';
import type { PlacementAsk } from './placement.js';

// The adapter seam, not a second engine (docs/workers.md): a harness adapter whose turn is
// dispatched to a worker, which runs it with its own local adapter. The engine starts it and reads
// its result as it does a local turn's. Where it runs is placed by the hub when the turn starts
// (`ask`, read then: the run's previous machine may have changed since the step began). Pause and
// abort reach the worker through the turn's AbortSignal (the dispatcher tells the worker to stop
// its CLI); a message mid-turn goes to the worker for the CLIs whose local adapter takes one
// (claude's send()); for the others it is held for the step's next turn, as it is locally.

// the local adapters whose send() delivers mid-turn (codex and opencode answer false: lib/harness)
const TAKES_MESSAGES_MID_TURN: ReadonlySet<HarnessName> = new Set(['claude']);

export const remoteAdapter = (name: HarnessName, ask: () => PlacementAsk, dispatcher: () => Promise<Dispatcher>, egress: (tools: TurnInput['tools']) => readonly string[]): HarnessAdapter => ({
  name,
  // whether a worker has the harness ready is what it announced when it joined (placement reads it)
  check: async () => ({ _tag: 'Ready' }),
  startTurn: (input) => {
    let d: Dispatcher | undefined;
    return {
      result: dispatcher().then((x) => (d = x).start(input, name, ask(), egress(input.tools))),
      send: (text) => TAKES_MESSAGES_MID_TURN.has(name) && !!d && d.message(input.stepId, text),
    };
  },
});

/**
 * A turn the hub had ended before it was killed (docs/workers.md, "The hub is killed mid-turn"):
 * its result, recorded with StepResultApplied, is the turn's; nothing runs. The dispatch's
 * snapshot ref, which the killed hub may not have dropped yet, goes first (`key`: the turn's).
 */
export const recordedAdapter = (name: HarnessName, key: string, r: TurnResult): HarnessAdapter => ({
  name,
  check: async () => ({ _tag: 'Ready' }),
  startTurn: (input) => ({
    result: dropDispatchRef(input.cwd, key).catch(() => undefined).then(() => r),
    send: () => false,
  }),
});
