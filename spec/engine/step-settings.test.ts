import '../helpers/env.js';
import test from 'ava';
import { testServer } from '../helpers/server.js';
import { detail, startRun } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';

test('get_run shows the current step\'s persona, harness, model and tools, each with where it came from', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  // The shipped default workflow; the planner persona makes its step read-only.
  const runId = await startRun(s, { goal: '[sleep:20000]', workflow: 'default' });
  const d = await eventually(() => detail(s, runId), (r) => r.currentStep === 'plan' && r.standing === 'Running');
  t.deepEqual(d.currentStepSettings.persona, { value: 'planner', source: 'node' });
  t.deepEqual(d.currentStepSettings.tools, { value: 'read-only', source: 'persona' });
  t.deepEqual(d.currentStepSettings.harness, { value: 'claude', source: 'shipped' });
  t.deepEqual(d.currentStepToolClasses, ['read']);

  const chosen = await startRun(s, { goal: '[sleep:20000]', workflow: 'default', harness: 'codex', model: 'gpt-5-codex' });
  const c = await eventually(() => detail(s, chosen), (r) => r.currentStep === 'plan' && r.currentStepSettings !== null);
  t.deepEqual(c.currentStepSettings.harness, { value: 'codex', source: 'run' });
  t.deepEqual(c.currentStepSettings.model, { value: 'gpt-5-codex', source: 'run' });
  await s.post(`/api/runs/${runId}/control`, { position: d.position, action: 'Abort' });
});
