import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { GATE } from './kit.js';
import { chatOver } from './live-kit.js';

// Wakes from the runs a supervisor owns, in the real server: a run stopped at a gate and a failed
// run are noticed in its chat; a kind switched off in wakeOn is not. The supervisor is paused, so
// the wakes are recorded and wait (the chat says why) and no turn runs.

const JSON_TYPE = { 'content-type': 'application/json' };

test('a gate and a failure on owned runs wake its owner; a kind switched off does not', async (t) => {
  const s = await testServer({ workflows: { gate: GATE, strict: STRICT } });
  t.teardown(() => s.close());
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  const global = (await s.get('/api/supervisors')).body[0].id as string;
  t.is((await s.send('PATCH', `/api/supervisors/${global}`, JSON.stringify({ paused: true }), JSON_TYPE)).status, 200);
  const chat = () => chatOver(s.get)(global);

  const gated = await startRun(s, { goal: 'hold here', workflow: 'gate' });
  await untilStanding(s, gated, 'Paused');
  const failed = await startRun(s, { goal: 'break [fail]', workflow: 'strict' });
  await untilStanding(s, failed, 'Failed');
  const woken = await eventually(chat, (c) => c.filter((e) => e.type === 'WakeNoticed').length >= 2);
  const wakes = woken.filter((e) => e.type === 'WakeNoticed').map((e) => [e.data.kind, e.data.runId]);
  t.deepEqual(wakes.sort(), [['failed', failed], ['gate', gated]].sort());
  t.regex(woken.find((e) => e.type === 'WakesHeld')!.data.reason, /paused/);
  t.false(woken.some((e) => e.type === 'TurnStarted'), 'no turn while paused');

  t.is((await s.send('PATCH', `/api/supervisors/${global}`, JSON.stringify({ wakeOn: { failed: false } }), JSON_TYPE)).status, 200);
  const quiet = await startRun(s, { goal: 'break again [fail]', workflow: 'strict' });
  await untilStanding(s, quiet, 'Failed');
  const gated2 = await startRun(s, { goal: 'hold again', workflow: 'gate' });
  await untilStanding(s, gated2, 'Paused');
  const after = await eventually(chat, (c) => c.some((e) => e.type === 'WakeNoticed' && e.data.runId === gated2));
  t.false(after.some((e) => e.type === 'WakeNoticed' && e.data.runId === quiet), 'wakeOn.failed off: the failure is not noticed');
});
