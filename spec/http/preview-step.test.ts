import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { PREVIEW, previewRepo } from '../helpers/preview.js';
import { anyAlive, previewPids } from '../helpers/preview-runs.js';
import { detail, history, untilStanding } from '../helpers/steer.js';

// A workflow's `kind=preview` step (docs/workflows.md): it starts the run's preview and succeeds once
// the port answers; the command step after it curls {{preview.url}} (through svc's proxy, from inside
// svc's sandbox where the machine has one) and finds the page; the preview stops with the run.

const PREVIEWED = `digraph previewed {
  start [kind=start]
  up    [kind=preview]
  check [kind=command, command="test \\"$SVC_PREVIEW_URL\\" = '{{preview.url}}' && curl -sf '{{preview.url}}hello?from=step' | grep -q '<p id=\\"path\\">/hello?from=step</p>'"]
  done  [kind=exit]
  start -> up
  up -> check [condition="outcome=success"]
  check -> done [condition="outcome=success"]
}`;

test('a preview step starts the preview, a command step curls {{preview.url}} and succeeds, the run ending stops it', async (t) => {
  t.timeout(180_000);
  const s = await testServer({ workflows: { previewed: PREVIEWED }, repo: previewRepo() });
  t.teardown(() => s.close());
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ preview: PREVIEW }))).status, 200);
  const valid = await s.get(`/api/workflows/previewed/validation?project=${s.projectId}`);
  t.is(valid.status, 200, JSON.stringify(valid.body));
  t.false(JSON.stringify(valid.body).includes('placeholders are not expanded'), JSON.stringify(valid.body));
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'check the page', workflow: 'previewed' });
  t.is(r.status, 200, JSON.stringify(r.body));
  const runId = r.body.runId as string;
  const pid = await previewPids(s, runId);
  await untilStanding(s, runId, 'Succeeded', 120_000).catch(async () => t.fail(JSON.stringify((await detail(s, runId)), null, 1).slice(0, 2000)));
  const events = await history(s, runId);
  const finished = events.filter((e) => e.type === 'StepSucceeded' || e.type === 'StepFailed').map((e) => `${e.type} ${e.data.summary ?? ''}`);
  t.regex(finished[0]!, new RegExp(`^StepSucceeded preview answering at ${s.url}/preview/${runId}/$`));
  t.is(finished[1], 'StepSucceeded command exited with 0');
  const started = events.filter((e) => e.type === 'StepStarted').map((e) => e.data);
  t.log(`command step sandboxed: ${String(started.find((d) => d.node === 'check')?.sandboxed)}`);
  const v = (await eventually(() => s.get(`/api/runs/${runId}/preview`), (x) => x.body.state === 'stopped')).body;
  t.is(v.stopReason, 'run-ended');
  await eventually(() => anyAlive(pid), (x) => !x);
});

test('a preview step on a project with no preview command fails with the reason', async (t) => {
  t.timeout(120_000);
  const s = await testServer({ workflows: { previewed: PREVIEWED } });
  t.teardown(() => s.close());
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'no command', workflow: 'previewed' });
  await untilStanding(s, r.body.runId, 'Failed', 60_000);
  const failed = (await history(s, r.body.runId)).find((e) => e.type === 'StepFailed');
  t.regex(failed.data.summary, /^preview did not start: the project has no preview command/);
});
