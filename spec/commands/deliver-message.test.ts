import test from 'ava';
import type { Either } from 'fp-ts/lib/Either.js';
import { decideDeliverMessage } from '../../commands/send-message.js';
import type { Refusal } from '../../commands/refusal.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { by, created, given, prepared, queued, running, started, stepStarted } from '../helpers/given.js';

// The engine's steering hands a recorded Resume message to the live turn and records that the CLI
// took it. given(events) / when(DeliverMessage) / then(whole events); a repeat is nothing.

const then = (d: Either<Refusal, RunEvent[]>): RunEvent[] | Refusal => (d._tag === 'Right' ? d.right : d.left);
const sent = (messageId: string, delivery: 'Resume' | 'Hold'): RunEvent => ({ type: 'MessageSent', data: { messageId, text: 'hi', delivery, by } });
const delivered: RunEvent = { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } };

const cases: ReadonlyArray<[string, RunState, { messageId: string; stepId: string }, RunEvent[] | Refusal]> = [
  ['a Resume message held for the running step: delivered', running(sent('m1', 'Resume')), { messageId: 'm1', stepId: 's1' }, [delivered]],
  ['delivered already: nothing (a repeat)', running(sent('m1', 'Resume'), delivered), { messageId: 'm1', stepId: 's1' }, []],
  ['a Hold message is for the next turn, not this one: nothing', running(sent('m1', 'Hold')), { messageId: 'm1', stepId: 's1' }, []],
  ['the step is no longer the run\'s: nothing', running(sent('m1', 'Resume'), { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'ok' } }), { messageId: 'm1', stepId: 's1' }, []],
  ['the run paused: nothing', running(sent('m1', 'Resume'), { type: 'RunPaused', data: { by } }), { messageId: 'm1', stepId: 's1' }, []],
  ['a message sent at a gate is not for a turn: nothing', given(created, queued, started, prepared, stepStarted('g1', 'gate', 'gate'), sent('m1', 'Resume')), { messageId: 'm1', stepId: 'g1' }, []],
];

for (const [name, state, cmd, expected] of cases) {
  test(`DeliverMessage: ${name}`, (t) => t.deepEqual(then(decideDeliverMessage(state, cmd)), expected));
}
