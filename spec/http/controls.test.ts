import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { eventually } from '../helpers/env.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { controlApplied, eventsOf, setRunCap, untilEnded, untilEvents, worktreeOf } from '../helpers/http-kit.js';
import { testServer, type TestServer, STRICT } from '../helpers/server.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';

// POST /api/runs/{id}/control with the position read from the detail: Applied or Stale, refused
// when the action is not allowed, and exactly one winner when many ask at once.

const test = anyTest as TestFn<{ s: TestServer }>;


test.before(async (t) => {
  t.context.s = await testServer({ workflows: { strict: STRICT } });
  await setRunCap(t.context.s, 20);
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const act = (s: TestServer, runId: string, position: string, action: string) => s.post(`/api/runs/${runId}/control`, { position, action });

/** A run whose agent step is in flight (its turn is live). */
const running = async (s: TestServer, goal: string): Promise<string> => {
  const runId = await startRun(s, { goal, workflow: 'linear' });
  await untilEvents(s, runId, 'StepStarted');
  await untilStanding(s, runId, 'Running');
  return runId;
};

test('Pause then Resume: each is Applied with the current view, and the run goes on to succeed', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'work a while [sleepfresh:20000]');
  const paused = await control(s, runId, 'Pause');
  t.is(paused.status, 200, JSON.stringify(paused.body));
  t.is(paused.body.outcome, 'Applied');
  t.like(paused.body.run, { id: runId, standing: 'Paused' });
  t.true(paused.body.run.allowedActions.includes('Resume'));
  t.false(paused.body.run.allowedActions.includes('Pause'));
  t.is(paused.body.run.position, (await detail(s, runId)).position);
  const resumed = await control(s, runId, 'Resume');
  t.is(resumed.body.outcome, 'Applied', JSON.stringify(resumed.body));
  t.not(resumed.body.run.standing, 'Paused');
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
  const types = (await history(s, runId)).map((e) => e.type);
  t.true(types.indexOf('RunPaused') < types.indexOf('RunResumed'));
  t.true(types.includes('StepInterrupted'));
});

test('an action not in allowedActions is 409 with the allowed list', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'not yet', workflow: 'linear', start: false });
  const d = await detail(s, runId);
  t.false(d.allowedActions.includes('Pause'));
  const r = await act(s, runId, d.position, 'Pause');
  t.is(r.status, 409);
  t.deepEqual(r.body.allowedActions, d.allowedActions);
  t.regex(r.body.detail, /Pause/);
  t.deepEqual((await history(s, runId)).map((e) => e.type), ['RunCreated']);
});

test('a stale position is outcome Stale with the current view, and nothing is applied', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'stale [sleep:8000]');
  const old = (await detail(s, runId)).position as string;
  t.is((await act(s, runId, old, 'Pause')).body.outcome, 'Applied');
  const r = await act(s, runId, old, 'Resume');
  t.is(r.status, 200);
  t.is(r.body.outcome, 'Stale');
  t.like(r.body.run, { id: runId, standing: 'Paused' });
  t.not(r.body.run.position, old);
  t.is((await eventsOf(s, runId, 'RunResumed')).length, 0);
  t.is((await detail(s, runId)).standing, 'Paused');
  t.is((await controlApplied(s, runId, 'Abort')).body.outcome, 'Applied');
});

test('ten concurrent Pause requests with the same position: exactly one Applied, the rest Stale, one RunPaused', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'race [sleep:5000]');
  const { position } = await detail(s, runId);
  const answers = await Promise.all(Array.from({ length: 10 }, () => act(s, runId, position, 'Pause')));
  t.deepEqual(answers.map((a) => a.status), Array(10).fill(200));
  const outcomes = answers.map((a) => a.body.outcome);
  t.is(outcomes.filter((o) => o === 'Applied').length, 1, JSON.stringify(outcomes));
  t.is(outcomes.filter((o) => o === 'Stale').length, 9);
  t.is((await eventsOf(s, runId, 'RunPaused')).length, 1);
  t.is((await detail(s, runId)).standing, 'Paused');
  t.is((await controlApplied(s, runId, 'Abort')).body.outcome, 'Applied');
});

test('Retry after a failed step runs the step again', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'break [fail]', workflow: 'strict' });
  const failed = await untilEnded(s, runId);
  t.is(failed.standing, 'Failed');
  t.true(failed.allowedActions.includes('Retry'));
  const r = await act(s, runId, failed.position, 'Retry');
  t.is(r.body.outcome, 'Applied', JSON.stringify(r.body));
  const steps = await untilEvents(s, runId, 'StepStarted', 2).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- history ---\n${(await history(s, runId)).map((e) => `${e.seq} ${e.type} ${JSON.stringify(e.data)}`).join('\n')}\n--- detail ---\n${JSON.stringify(await detail(s, runId))}\n--- log ---\n${log}`);
  });
  t.is(steps.length, 2);
  t.true(steps.every((e) => e.data.node === 'work'));
  await eventually(() => eventsOf(s, runId, 'RunFailed'), (es) => es.length === 2);
  t.is((await detail(s, runId)).standing, 'Failed');
  t.is((await eventsOf(s, runId, 'RunRetried')).length, 1);
});

test('Abort ends a run for good: Resume and Retry are not allowed afterwards', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'abort me [sleep:8000]');
  const r = await control(s, runId, 'Abort');
  t.is(r.body.outcome, 'Applied');
  t.is(r.body.run.standing, 'Aborted');
  const d = await detail(s, runId);
  t.is(d.standing, 'Aborted');
  for (const a of ['Resume', 'Retry', 'Pause', 'Abort']) t.false(d.allowedActions.includes(a), a);
  for (const a of ['Resume', 'Retry']) {
    const refused = await act(s, runId, d.position, a);
    t.is(refused.status, 409, a);
    t.deepEqual(refused.body.allowedActions, d.allowedActions);
  }
  t.is((await detail(s, runId)).standing, 'Aborted');
});

test('Restart makes a new run: the old one names it as restartedAs, and the new one runs', async (t) => {
  const { s } = t.context;
  // Each run waits for its own go-ahead file, so the old one is still going when Restart arrives
  // however slow the machine is.
  const runId = await running(s, 'restart me [until:go]');
  const r = await control(s, runId, 'Restart');
  t.is(r.body.outcome, 'Applied', JSON.stringify(r.body));
  const newId = r.body.run.restartedAs as string;
  t.is(typeof newId, 'string');
  t.not(newId, runId);
  const old = await detail(s, runId);
  t.is(old.restartedAs, newId);
  t.is(old.standing, 'Aborted');
  await untilEvents(s, newId, 'StepStarted');
  writeFileSync(join(await worktreeOf(s, newId), 'go'), '');
  const fresh = await untilEnded(s, newId);
  t.is(fresh.standing, 'Succeeded');
  t.is(fresh.restartOf, runId);
  t.is(fresh.goal, 'restart me [until:go]');
  t.is((await eventsOf(s, newId, 'StepStarted')).length, 1);
});

test('MoveToFront under a cap of one: the moved run gets the next slot', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  await setRunCap(s, 1);
  const first = await startRun(s, { goal: 'first [silent]', workflow: 'linear' });
  await untilStanding(s, first, 'Running');
  const second = await startRun(s, { goal: 'second [silent]', workflow: 'linear' });
  const third = await startRun(s, { goal: 'third [silent]', workflow: 'linear' });
  t.is((await detail(s, second)).standing, 'Queued');
  t.is((await detail(s, third)).standing, 'Queued');
  const moved = await control(s, third, 'MoveToFront');
  t.is(moved.body.outcome, 'Applied', JSON.stringify(moved.body));
  t.is(moved.body.run.standing, 'Queued');
  t.is((await controlApplied(s, first, 'Abort')).body.outcome, 'Applied');
  await untilStanding(s, third, 'Running');
  t.is((await detail(s, second)).standing, 'Queued');
  t.false((await detail(s, third)).allowedActions.includes('MoveToFront'));
  t.is((await controlApplied(s, third, 'Abort')).body.outcome, 'Applied');
  await untilStanding(s, second, 'Running');
  t.is((await controlApplied(s, second, 'Abort')).body.outcome, 'Applied');
});

test('five concurrent Restarts with the same position make exactly one new run', async (t) => {
  const { s } = t.context;
  const goal = 'restart race [silent]';
  const runId = await running(s, goal);
  const { position } = await detail(s, runId);
  const answers = await Promise.all(Array.from({ length: 5 }, () => act(s, runId, position, 'Restart')));
  t.deepEqual(answers.map((a) => a.body.outcome).sort(), ['Applied', 'Stale', 'Stale', 'Stale', 'Stale']);
  const same = ((await s.get('/api/runs')).body as { runId: string; goal: string }[]).filter((r) => r.goal === goal);
  t.is(same.length, 2, JSON.stringify(same));
  const fresh = same.find((r) => r.runId !== runId)!;
  t.is((await detail(s, runId)).restartedAs, fresh.runId);
  t.is((await eventsOf(s, runId, 'RunRestarted')).length, 1);
  t.is((await controlApplied(s, fresh.runId, 'Abort')).body.outcome, 'Applied');
});
