import test from 'ava';
import type { Either } from 'fp-ts/lib/Either.js';
import { decideFinishStep, decideGrantSlot, type FinishStep } from '../../commands/engine-steps.js';
import type { Refusal } from '../../commands/refusal.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import { created, given, queued, running } from '../helpers/given.js';

// Two rules that lived in the engine and now live in the decides: the run cap (decideGrantSlot)
// and "the agent's reported outcome beats the CLI's result" (decideFinishStep).
// given(events) / when(command) / then(whole events, or the refusal).

const then = (d: Either<Refusal, RunEvent[]>): RunEvent[] | Refusal => (d._tag === 'Right' ? d.right : d.left);
const reported = (outcome: 'success' | 'failure', summary: string): RunEvent => ({ type: 'OutcomeReported', data: { stepId: 's1', outcome, summary } });

const grants: ReadonlyArray<[string, RunState, { held: number; cap: number }, RunEvent[] | Refusal]> = [
  ['a free slot starts a queued run at its first step', given(created, queued), { held: 1, cap: 2 }, [{ type: 'RunStarted', data: { node: 'work' } }]],
  ['every slot held: refused, the run waits', given(created, queued), { held: 2, cap: 2 }, { _tag: 'Conflict', detail: 'all 2 run slot(s) are taken; the run waits in the queue' }],
  ['past the cap (it was lowered): refused', given(created, queued), { held: 3, cap: 1 }, { _tag: 'Conflict', detail: 'all 1 run slot(s) are taken; the run waits in the queue' }],
  ['a run already started: nothing, whatever the count', running(), { held: 5, cap: 1 }, []],
  ['a run not queued (draft): nothing', given(created), { held: 0, cap: 1 }, []],
];

for (const [name, state, cmd, expected] of grants) {
  test(`GrantSlot: ${name}`, (t) => t.deepEqual(then(decideGrantSlot(state, cmd)), expected));
}

const finishes: ReadonlyArray<[string, RunState, FinishStep, RunEvent[]]> = [
  ['no report: the CLI\'s success stands', running(), { stepId: 's1', outcome: 'success', summary: 'done', costUsd: 0.5 },
    [{ type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'done', costUsd: 0.5 } }]],
  ['the agent reported failure: it beats the CLI\'s success', running(reported('failure', 'tests still fail')), { stepId: 's1', outcome: 'success', summary: 'turn ended', costUsd: 0.5 },
    [{ type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'tests still fail', costUsd: 0.5 } }]],
  ['the agent reported success: it beats the CLI\'s failure (its failure kind is dropped)', running(reported('success', 'all green')), { stepId: 's1', outcome: 'failure', summary: 'exit 1', failure: 'error' },
    [{ type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'all green' } }]],
  ['an interruption beats the report', running(reported('success', 'all green')), { stepId: 's1', outcome: 'interrupted', summary: 'paused' },
    [{ type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } }]],
  ['an empty summary is the outcome\'s name', running(), { stepId: 's1', outcome: 'failure', summary: '', failure: 'watchdog' },
    [{ type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'failure', failure: 'watchdog' } }]],
  ['a report by the agent of another step does not count', running({ type: 'OutcomeReported', data: { stepId: 's0', outcome: 'failure', summary: 'old' } }), { stepId: 's1', outcome: 'success', summary: 'done' },
    [{ type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'done' } }]],
  ['a repeated finish (the step is over): nothing', running(reported('failure', 'x'), { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'x' } }), { stepId: 's1', outcome: 'success', summary: 'late' }, []],
];

for (const [name, state, cmd, expected] of finishes) {
  test(`FinishStep: ${name}`, (t) => t.deepEqual(then(decideFinishStep(state, cmd)), expected));
}
