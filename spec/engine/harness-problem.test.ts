import '../helpers/env.js';
import test from 'ava';
import { STRICT, testServer } from '../helpers/server.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';

// A step whose CLI could not start pauses the run (not the workflow's failure edge), and
// ChangeHarness runs the same step on a harness that works. The scripted stand-in ends its turn
// the way an adapter does when spawn says ENOENT ([nocli:claude]).

test('a harness problem pauses the run; ChangeHarness runs the step again on another harness and the run goes on', async (t) => {
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[nocli:claude] do it', workflow: 'strict', harness: 'claude' });
  const paused = await eventually(() => detail(s, runId), (d) => d.standing === 'Paused');
  t.is(paused.currentStep, 'work');
  for (const a of ['ChangeHarness', 'Resume', 'Abort']) t.true(paused.allowedActions.includes(a), a);
  t.false((await history(s, runId)).some((e) => e.type === 'StepFailed' || e.type === 'RunFailed'), 'STRICT fails the run on a failed step: not taken');

  t.is((await control(s, runId, 'ChangeHarness', { harness: 'codex' })).body.outcome, 'Applied');
  const done = await untilStanding(s, runId, 'Succeeded');
  t.is(done.outcome, 'success');
  const started = (await history(s, runId)).filter((e) => e.type === 'StepStarted').map((e) => e.data.harness);
  t.deepEqual(started, ['claude', 'codex']);
});

test('Abort ends a run paused by a harness problem', async (t) => {
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[nocli:claude]', workflow: 'strict', harness: 'claude' });
  await untilStanding(s, runId, 'Paused');
  t.is((await control(s, runId, 'Abort')).body.outcome, 'Applied');
  t.is((await detail(s, runId)).standing, 'Aborted');
});
