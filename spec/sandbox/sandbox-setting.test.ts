import '../helpers/env.js';
import test from 'ava';
import { join } from 'node:path';
import { tempDir } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// A machine where bubblewrap cannot start (SVC_BWRAP names a binary that is not there): a project
// set to `required` does not start runs and says why; `preferred` runs unsandboxed and the run
// says so; `off` says so too. Settings that make no sense are refused with a reason.

const missing = join(tempDir('svc-no-bwrap-'), 'bwrap');
process.env['SVC_BWRAP'] = missing;

const patch = (s: Awaited<ReturnType<typeof testServer>>, body: unknown) => s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify(body));

test('without bubblewrap: required refuses the start with the reason, preferred and off run unsandboxed and marked', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  t.is((await patch(s, { sandbox: 'required' })).status, 200);
  const refused = await s.post('/api/runs', { project: s.projectId, goal: 'x', workflow: 'linear' });
  t.is(refused.status, 409);
  t.true(refused.body.detail.includes('requires svc\'s sandbox'), refused.body.detail);
  t.true(refused.body.detail.includes(`${missing}: not found`), 'the probe\'s reason');
  const needs = (await s.get(`/api/harnesses/needed?project=${s.projectId}&workflow=linear`)).body;
  t.like(needs.sandbox, { mode: 'required', sandboxed: false });
  t.true(needs.refusal.includes('requires svc\'s sandbox'), 'the New run form is told before starting');
  t.true((await s.post('/api/runs', { project: s.projectId, goal: 'x', workflow: 'linear', start: false })).status === 200, 'recording without starting is allowed');

  t.is((await patch(s, { sandbox: 'preferred' })).status, 200);
  const preferred = await startRun(s, { goal: 'x', workflow: 'linear' });
  const done = await untilStanding(s, preferred, 'Succeeded');
  t.false(done.sandbox.sandboxed);
  t.true(done.sandbox.reason.includes(`${missing}: not found`), done.sandbox.reason);
  const started = (await history(s, preferred)).find((e) => e.type === 'StepStarted');
  t.is(started.data.sandboxed, false);
  t.true(started.data.unsandboxed.includes('bubblewrap is not installed'));

  t.is((await patch(s, { sandbox: 'off' })).status, 200);
  const off = await startRun(s, { goal: 'x', workflow: 'linear' });
  t.deepEqual((await untilStanding(s, off, 'Succeeded')).sandbox, { sandboxed: false, reason: 'the project\'s sandbox setting is off' });
  const machine = (await s.get('/api/harnesses')).body.sandbox;
  t.like(machine, { available: false, bwrap: missing });
});

test('sandbox and egress settings: bad values are refused with a reason, good ones are kept', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const bad = await patch(s, { sandbox: 'sometimes' });
  t.is(bad.status, 400);
  t.true(bad.body.detail.includes('required, preferred or off'), bad.body.detail);
  const star = await patch(s, { egressAllow: ['*'] });
  t.is(star.status, 400);
  t.true(star.body.detail.includes('\'*\' only in egressAllowFull'), star.body.detail);
  t.is((await patch(s, { egressAllow: ['http://x'] })).status, 400);
  const ok = await patch(s, { egressAllow: ['registry.npmjs.org', '*.pypi.org', 'localhost:8080'], egressAllowFull: ['*'], sandbox: 'required' });
  t.is(ok.status, 200, JSON.stringify(ok.body));
  const p = (await s.get(`/api/projects/${s.projectId}`)).body;
  t.deepEqual([p.sandbox, p.egressAllow, p.egressAllowFull], ['required', ['registry.npmjs.org', '*.pypi.org', 'localhost:8080'], ['*']]);
});
