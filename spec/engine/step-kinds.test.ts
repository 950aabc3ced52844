import { eventually } from '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRICT, testServer } from '../helpers/server.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';

const GATED = `digraph gated {
  start [kind=start]
  first [kind=agent, prompt="first {{goal}} [write:first.txt=1]"]
  review [kind=gate, label="Look first"]
  pause [kind=wait, duration="1h"]
  second [kind=agent, prompt="second [write:second.txt=2]"]
  done [kind=exit]
  start -> first -> review -> pause -> second -> done
}`;

const LOOP = `digraph loop {
  start [kind=start]
  a [kind=agent, prompt="a [write:a.txt=a]"]
  g [kind=gate]
  b [kind=agent, prompt="b"]
  done [kind=exit]
  start -> a -> g -> b -> done
}`;

const ROUTED = `digraph routed {
  inputs="code"
  start [kind=start]
  check [kind=command, command="exit $SVC_INPUT_CODE"]
  good [kind=agent, prompt="[write:route.txt=good]"]
  bad [kind=agent, prompt="[write:route.txt=bad]"]
  done [kind=exit]
  start -> check
  check -> good [condition="outcome=success"]
  check -> bad [condition="outcome=failure"]
  good -> done
  bad -> done
}`;

const turns = (dir: string) => readFileSync(join(dir, '.turns.log'), 'utf8').trim().split('\n');

test('gate: Paused until Resume; wait: Waiting with waitEndsAt until SkipWait; then the run goes on', async (t) => {
  const s = await testServer({ workflows: { gated: GATED } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'go', workflow: 'gated' });
  const atGate = await untilStanding(s, runId, 'Paused');
  t.is(atGate.phase, 'AtGate');
  t.is(atGate.currentStep, 'review');
  t.true(atGate.allowedActions.includes('Resume'));
  t.false(atGate.allowedActions.includes('SkipWait'));
  t.is((await control(s, runId, 'SkipWait')).status, 409);
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const waiting = await untilStanding(s, runId, 'Waiting');
  t.is(waiting.currentStep, 'pause');
  const ends = Date.parse(waiting.waitEndsAt);
  t.true(ends > Date.now() + 3_000_000 && ends <= Date.now() + 3_600_000);
  t.true(waiting.allowedActions.includes('SkipWait'));
  t.is((await control(s, runId, 'SkipWait')).body.outcome, 'Applied');
  const done = await untilStanding(s, runId, 'Succeeded');
  t.is(done.outcome, 'success');
  const types = (await history(s, runId)).map((e) => e.type);
  t.true(types.includes('WaitSkipped'));
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.is(readFileSync(join(dir, 'second.txt'), 'utf8'), '2');
});

test('Jump backwards into a loop runs the step again; a node that does not exist is refused with the valid ones', async (t) => {
  const s = await testServer({ workflows: { loop: LOOP } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'x', workflow: 'loop' });
  await untilStanding(s, runId, 'Paused');
  const bad = await control(s, runId, 'Jump', { node: 'nowhere' });
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /valid steps: a, g, b, done/);
  t.is((await control(s, runId, 'Jump', { node: 'a' })).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Paused');
  const d = await detail(s, runId);
  t.is(d.currentStep, 'g');
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.is(turns(dir).length, 2, 'step a ran twice');
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Succeeded');
});

test('command steps route on their exit code', async (t) => {
  const s = await testServer({ workflows: { routed: ROUTED } });
  t.teardown(() => s.close());
  for (const [code, route] of [['0', 'good'], ['3', 'bad']] as const) {
    const runId = await startRun(s, { goal: 'route', workflow: 'routed', inputs: { code } });
    await untilStanding(s, runId, 'Succeeded');
    const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
    t.is(readFileSync(join(dir, 'route.txt'), 'utf8'), route);
  }
});

test('an outcome with no route ends the run Failed, naming the step; Retry runs the step again', async (t) => {
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[fail]', workflow: 'strict' });
  const failed = await untilStanding(s, runId, 'Failed');
  t.is(failed.outcome, 'failure');
  t.deepEqual([...failed.allowedActions].sort(), ['ChangeHarness', 'Jump', 'Restart', 'Retry']);
  const r = await s.get(`/api/runs/${runId}/history?pageSize=200`);
  const end = r.body.events.find((e: any) => e.type === 'RunFailed');
  t.regex(end.data.reason, /step work ended with failure/);
  t.is((await control(s, runId, 'Retry')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Failed');
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.is(turns(dir).length, 2);
});

test('ChangeHarness during a quota wait retries the step on the other harness, recorded with its source', async (t) => {
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[quota]', workflow: 'strict', harness: 'claude' });
  // out of quota is not the agent failing: the step waits for the window (docs/usage.md)
  const waiting = await untilStanding(s, runId, 'Waiting');
  t.is(waiting.waitingOn.harness, 'claude');
  t.true(waiting.allowedActions.includes('ChangeHarness'));
  const bad = await control(s, runId, 'ChangeHarness', { harness: 'codex', model: 'gpt-5' });
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /model/);
  const changed = await control(s, runId, 'ChangeHarness', { harness: 'codex' });
  t.is(changed.body.outcome, 'Applied', JSON.stringify(changed.body));
  t.deepEqual(changed.body.run.currentStepSettings.harness, { value: 'codex', source: 'run' });
  await eventually(() => detail(s, runId), (r: any) => r.waitingOn?.harness === 'codex');
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.deepEqual(turns(dir).map((l) => l.split(' ')[2]), ['claude', 'codex']);
  t.true((await history(s, runId)).some((e) => e.type === 'HarnessChanged' && e.data.harness === 'codex'));
});
