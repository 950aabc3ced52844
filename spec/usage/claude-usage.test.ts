import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { say, sayCostly, type ModelTurn } from '../fixtures/model-server/script.js';
import { freshClaudeCost, near } from '../harness/claude-price.js';
import { REAL, realCliServer, TWO_STEPS } from '../helpers/real-run.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';

// Usage and budgets on the real claude CLI against the scripted model server: each turn records
// the tokens the server served and the cost claude reported (its own share of a resumed session's
// running total), and a run budget stops a two-step run after the step that reached it. Serial:
// the CLI finds its model server through process.env, which each test points at its own.

const costly = (text: string, inputTokens: number, cachedInputTokens = 0): ModelTurn =>
  ({ kind: 'reply', text, usage: { inputTokens, outputTokens: 42, cachedInputTokens } });

const usageOf = async (s: Parameters<typeof history>[0], runId: string) =>
  (await history(s, runId)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data);

const server = (t: ExecutionContext) => realCliServer(t, 'claude', { two: TWO_STEPS, real: REAL });

test.serial('a run budget pauses a two-step run after step 1 reached it; Resume with a raise goes on to the end', async (t) => {
  t.timeout(300_000);
  const { s, model } = await server(t);
  model.push(costly('STEP-ONE', 200_000, 5_000), costly('STEP-TWO', 1_000));
  const runId = await startRun(s, { goal: 'Say something.', workflow: 'two', harness: 'claude', budgetUsd: 0.01 });
  const paused = await untilStanding(s, runId, 'Paused', 150_000);

  const [one] = await usageOf(s, runId);
  t.like(one, { node: 'one', harness: 'claude', tokens: { input: 200_000, cachedInput: 5_000, output: 42 } });
  t.is(one.cost._tag, 'Reported');
  t.true(one.cost.usd > 0.01, `step one cost ${one.cost.usd}, past the budget`);
  const spent = `$${one.cost.usd.toFixed(one.cost.usd < 0.1 ? 4 : 2)}`;
  t.is(paused.pauseReason, `budget: spent ${spent} of $0.0100 budget`);
  t.deepEqual(paused.budget, { budgetUsd: 0.01, text: `spent ${spent} of $0.0100 budget` });
  t.is(paused.currentStep, 'two', 'step two did not start');
  t.true(near(paused.usage.total.costUsd, one.cost.usd));
  t.deepEqual(paused.usage.steps.map((st: any) => [st.node, st.turns, st.tokens]), [['one', 1, { input: 200_000, cachedInput: 5_000, output: 42 }]]);

  const refused = await control(s, runId, 'Resume');
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /spent \$[\d.]+ of \$0\.0100 budget; Resume with a raised budgetUsd/);
  t.is((await control(s, runId, 'Resume', { budgetUsd: 100 })).body.outcome, 'Applied');
  const done = await untilStanding(s, runId, 'Succeeded', 150_000);
  t.deepEqual(done.budget.budgetUsd, 100);
  const events = await history(s, runId);
  t.like(events.find((e) => e.type === 'BudgetRaised').data, { budgetUsd: 100, by: { kind: 'person' } });
  t.deepEqual((await usageOf(s, runId)).map((u) => [u.node, u.tokens.input]), [['one', 200_000], ['two', 1_000]]);
});

test.serial('a follow-up resuming a claude session records only its own turn, not the running total', async (t) => {
  t.timeout(300_000);
  const { s, model } = await server(t);
  model.push(sayCostly('FIRST', 100_000));
  const first = await startRun(s, { goal: 'First.', workflow: 'real', harness: 'claude' });
  await untilStanding(s, first, 'Succeeded', 150_000);
  const [before] = await usageOf(s, first);
  t.truthy(before.sessionTotals?.costUsd, 'the session totals claude reported are kept with the turn');

  model.replace(sayCostly('SECOND', 300_000), say('unused'));
  const next = (await s.post(`/api/runs/${first}/follow-ups`, { text: 'Again.' })).body.runId as string;
  await untilStanding(s, next, 'Succeeded', 150_000);
  const [turn] = await usageOf(s, next);
  t.is((await history(s, next)).find((e) => e.type === 'StepStarted').data.resumeSession, before.sessionId, 'the session was resumed');
  const own = await freshClaudeCost(300_000);
  t.true(near(turn.cost.usd, own), `the follow-up's turn recorded ${turn.cost.usd}; its own requests cost ${own}`);
  t.true(turn.sessionTotals.costUsd > turn.cost.usd, 'claude reported the running total, which includes the first run');
  t.true(near((await detail(s, next)).usage.total.costUsd, own));
});
