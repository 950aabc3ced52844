import test from 'ava';
import { allowedActions, decideControl } from '../../commands/control.js';
import { decideBudgetPause } from '../../commands/budget.js';
import { decideGrantSlot } from '../../commands/engine-steps.js';
import { decideRecordUsage } from '../../commands/record-usage.js';
import type { RunEvent, UsageCost } from '../../journal/run-events.js';
import { nextEffect } from '../../lib/engine/next-effect.js';
import { usageOfRun } from '../../projections/run-usage.js';
import { at, by, created, given, prepared, queued, runDecider, started, stepStarted } from '../helpers/given.js';

// Budgets as decides: the run's known spend reaching its budget pauses it before the next step;
// Resume must raise it past the spend; unknown costs are never counted as zero (the texts say so);
// a project's daily budget keeps its runs queued with the reason.

const ctx = { at, by };
const control = runDecider(decideControl);
const pause = runDecider((s, _c: undefined) => decideBudgetPause(s));
const grant = runDecider(decideGrantSlot);
const record = runDecider(decideRecordUsage);

const budgeted = (budgetUsd: number): RunEvent => ({ ...created, data: { ...(created.data as object), budgetUsd } }) as RunEvent;
const turn = (cost: UsageCost, stepId = 's1'): RunEvent => ({ type: 'UsageRecorded', data: { stepId, node: 'work', harness: 'codex', tokens: { input: 10, cachedInput: 2, output: 3 }, cost } });
const stepDone: RunEvent = { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'ok' } };
const afterStep = (budget: number, ...costs: UsageCost[]): RunEvent[] => [budgeted(budget), queued, started, prepared, stepStarted('s1'), ...costs.map((c) => turn(c)), stepDone];
const engine = { by: { kind: 'engine' as const } };

test('given spend at the budget after a step, the run pauses with the reason before the next step', (t) => {
  pause(t).given(...afterStep(1, { _tag: 'Priced', usd: 0.6 }, { _tag: 'Reported', usd: 0.4 })).when(undefined)
    .then({ type: 'RunPaused', data: { ...engine, reason: 'budget: spent $1.00 of $1.00 budget' } });
  // the step end's snapshot comes first (a fork from that step must see the worktree as it was); then the pause
  const ended = afterStep(1, { _tag: 'Priced', usd: 1.5 });
  const effect = { preparing: false, isLive: () => false, isArmed: () => false };
  t.like(nextEffect(given(...ended), effect), { _tag: 'Snapshot', stepId: 's1', at: ended.length });
  const snapshot: RunEvent = { type: 'SnapshotTaken', data: { stepId: 's1', node: 'work', at: ended.length, folder: 'app', commit: 'c0ffee', ref: 'refs/svc/snapshots/r1/7' } };
  t.deepEqual(nextEffect(given(...ended, snapshot), effect), { _tag: 'BudgetPause' });
});

test('given unknown turns, they are not counted as zero: the known part decides and the text says it is at least that', (t) => {
  pause(t).given(...afterStep(1, { _tag: 'Unknown', why: 'no price' }, { _tag: 'Reported', usd: 2 })).when(undefined)
    .then({ type: 'RunPaused', data: { ...engine, reason: 'budget: spent at least $2.00 (1 turn of unknown cost) of $1.00 budget' } });
  pause(t).given(...afterStep(1, { _tag: 'Unknown', why: 'no price' })).when(undefined).thenNothing();
});

test('given spend under the budget, or no budget, nothing pauses', (t) => {
  pause(t).given(...afterStep(1, { _tag: 'Reported', usd: 0.99 })).when(undefined).thenNothing();
  pause(t).given(created, queued, started, prepared, stepStarted('s1'), turn({ _tag: 'Reported', usd: 50 }), stepDone).when(undefined).thenNothing();
});

test('given a run its budget paused: Resume is refused with the spend; a raise past it resumes; a lower one is refused', (t) => {
  const paused = [...afterStep(1, { _tag: 'Reported', usd: 2 }), { type: 'RunPaused', data: { ...engine, reason: 'budget: spent $2.00 of $1.00 budget' } }] as RunEvent[];
  control(t).given(...paused).when({ ...ctx, action: 'Resume' }).thenRefused('Conflict', 'the run has spent $2.00 of $1.00 budget; Resume with a raised budgetUsd');
  control(t).given(...paused).when({ ...ctx, action: 'Resume', budgetUsd: 1.5 }).thenRefused('Conflict', 'the run has spent $2.00 of $1.50 budget; Resume with a raised budgetUsd');
  control(t).given(...paused).when({ ...ctx, action: 'Resume', budgetUsd: 0.5 }).thenRefused('Invalid', /budgetUsd must raise the budget: it is \$1\.00/);
  control(t).given(...paused).when({ ...ctx, action: 'Resume', budgetUsd: 5 }).then({ type: 'BudgetRaised', data: { budgetUsd: 5, by } }, { type: 'RunResumed', data: { by } });
  t.true(allowedActions(given(...paused)).includes('Resume'), 'Resume is offered: with a raise it is taken');
  t.is(given(...paused, { type: 'BudgetRaised', data: { budgetUsd: 5, by } }).budgetUsd, 5);
});

test('given a project at its daily budget, a queued run is refused a slot with the reason; under it, it starts', (t) => {
  grant(t).given(created, queued).when({ held: 0, cap: 3, project: { dailyBudgetUsd: 10, spentTodayUsd: 12.5 } })
    .thenRefused('Conflict', 'waiting: project daily budget $10.00 reached (spent $12.50)');
  grant(t).given(created, queued).when({ held: 0, cap: 3, project: { dailyBudgetUsd: 10, spentTodayUsd: 9 } }).then({ type: 'RunStarted', data: { node: 'work' } });
});

test('usage: each turn once; the run detail sums per step, costUsd null only when every turn was unknown', (t) => {
  const c = { stepId: 's1', node: 'work', turn: 1, harness: 'codex' as const, tokens: { input: 10, cachedInput: 2, output: 3 }, cost: { _tag: 'Unknown' as const, why: 'no price' } };
  record(t).given(created, queued, started, prepared, stepStarted('s1')).when(c).then(turn({ _tag: 'Unknown', why: 'no price' }));
  record(t).given(created, queued, started, prepared, stepStarted('s1'), turn({ _tag: 'Unknown', why: 'no price' })).when(c).thenNothing();
  const unknown = given(created, turn({ _tag: 'Unknown', why: 'no price' }));
  t.deepEqual(usageOfRun(unknown).total, { costUsd: null, unknownTurns: 1, tokens: { input: 10, cachedInput: 2, output: 3 } });
  const mixed = given(created, turn({ _tag: 'Unknown', why: 'x' }), turn({ _tag: 'Priced', usd: 0.25 }), turn({ _tag: 'Reported', usd: 0.5 }, 's2'));
  t.deepEqual(usageOfRun(mixed), {
    total: { costUsd: 0.75, unknownTurns: 1, tokens: { input: 30, cachedInput: 6, output: 9 } },
    steps: [
      { stepId: 's1', node: 'work', harness: 'codex', costUsd: 0.25, unknownTurns: 1, unknownWhy: 'x', tokens: { input: 20, cachedInput: 4, output: 6 }, turns: 2 },
      { stepId: 's2', node: 'work', harness: 'codex', costUsd: 0.5, unknownTurns: 0, tokens: { input: 10, cachedInput: 2, output: 3 }, turns: 1 },
    ],
  });
});
