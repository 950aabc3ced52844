import '../helpers/env.js';
import test from 'ava';
import { GATE_ONLY, testServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';

// The run view is a read model: built once for a run's position (and the facts outside the run it
// reads), then handed to every reader. Three push watchers, get_run and the control reply share
// one build per append; a change outside the run (a project renamed) builds it again.

const settle = async () => new Promise((r) => setTimeout(r, 200));

test('the run view is built once per append, however many watchers and reads', async (t) => {
  const s = await testServer({ workflows: { gate: GATE_ONLY } });
  t.teardown(() => s.close());
  const details = s.service.core.details;
  const runId = await startRun(s, { goal: 'look at it', workflow: 'gate' });
  await untilStanding(s, runId, 'Paused');

  const watchers = await Promise.all([1, 2, 3].map(() => openSse(`${s.url}/api/events?run=${runId}`)));
  t.teardown(() => watchers.forEach((w) => w.close()));
  await Promise.all(watchers.map((w) => w.until((f) => f.length >= 1)));
  await settle();

  const before = details.built;
  for (let i = 0; i < 5; i++) await detail(s, runId);
  t.is(details.built, before, 'reads of an unchanged run build nothing');

  const sent = await s.post(`/api/runs/${runId}/messages`, { text: 'look again', delivery: 'Hold' });
  t.is(sent.status, 200);
  await Promise.all(watchers.map((w) => w.until((f) => f.length >= 2)));
  await detail(s, runId);
  await settle();
  t.is(details.built, before + 1, 'one append, one build: shared by the reply, three frames and a read');

  const frames = watchers.map((w) => w.frames[w.frames.length - 1]!.data.run.position);
  t.deepEqual(frames, [frames[0], frames[0], frames[0]]);
});

test('a change outside the run (its project renamed) shows in its view at once', async (t) => {
  const s = await testServer({ workflows: { gate: GATE_ONLY } });
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'look at it', workflow: 'gate' });
  await untilStanding(s, runId, 'Paused');
  t.is((await detail(s, runId)).project, 'demo');
  const renamed = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ name: 'renamed' }));
  t.is(renamed.status, 200);
  t.is((await detail(s, runId)).project, 'renamed');
});
