import '../helpers/env.js';
import test from 'ava';
import { callMcp, say } from '../fixtures/model-server/script.js';
import { realCliServer, TWO_STEPS } from '../helpers/real-run.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';

// opencode's turns run outside svc's sandbox for now (docs/sandbox.md: a session opencode 1.18
// wrote inside it hangs when a fork resumes it). On a machine where the sandbox starts, an
// opencode run under the default `preferred` says so on every step and on its detail, and works.

test('an opencode run is marked unsandboxed with the reason on each step and on the run, and does its work', async (t) => {
  t.timeout(240_000);
  const { s, model } = await realCliServer(t, 'opencode', { two: TWO_STEPS });
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Do the work.', workflow: 'two', harness: 'opencode', start: false })).body.runId as string;
  model.push(
    callMcp('report_outcome', { outcome: 'success', summary: 'one done' }), say('ONE'),
    callMcp('report_outcome', { outcome: 'success', summary: 'two done' }), say('TWO'),
  );
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Succeeded', 200_000);
  const starts = (await history(s, runId)).filter((e) => e.type === 'StepStarted');
  t.is(starts.length, 2);
  for (const e of starts) {
    t.false(e.data.sandboxed);
    t.regex(e.data.unsandboxed, /opencode turns run unsandboxed for now/);
  }
  const d = await detail(s, runId);
  t.false(d.sandbox.sandboxed);
  t.regex(d.sandbox.reason, /opencode/);
});
