import '../helpers/env.js';
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testServer } from '../helpers/server.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';

const dirOf = async (s: Awaited<ReturnType<typeof testServer>>, runId: string) => (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory as string;

test('an agent asks through its run tool server: the run is Question, answered with option labels, and the agent gets the answer', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[ask:Which database?|postgres|sqlite]', workflow: 'linear' });
  const asked = await untilStanding(s, runId, 'Question');
  t.is(asked.phase, 'AwaitingAnswer');
  t.is(asked.question.prompt, 'Which database?');
  t.deepEqual(asked.question.options, ['postgres', 'sqlite']);
  const id = asked.question.id as string;
  const text = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: 'whatever you like' });
  t.is(text.status, 400);
  t.regex(text.body.detail, /does not take written text/);
  const unknown = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['mysql'] });
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /not an option: mysql/);
  const ok = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['sqlite'] });
  t.is(ok.status, 200, JSON.stringify(ok.body));
  t.like(ok.body, { question: id, delivered: true, detail: null });
  await untilStanding(s, runId, 'Succeeded');
  t.regex(readFileSync(join(await dirOf(s, runId), 'answer.txt'), 'utf8'), /sqlite/);
  t.is(readFileSync(join(await dirOf(s, runId), '.holds.log'), 'utf8'), 'true\nfalse\n', 'the watchdog is held while the person decides');
  const again = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['sqlite'] });
  t.is(again.status, 409);
  t.regex(again.body.detail, /already answered/);
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=50`)).body.rows.map((r: any) => r.kind);
  t.true(thread.includes('question') && thread.includes('answer'));
});

test('a written answer reaches the agent; a question withdrawn by Abort cannot be answered', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[ask:What name?]', workflow: 'linear' });
  const asked = await untilStanding(s, runId, 'Question');
  t.true(asked.question.allowText);
  t.is((await s.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: 'Ada' })).status, 200);
  await untilStanding(s, runId, 'Succeeded');
  t.regex(readFileSync(join(await dirOf(s, runId), 'answer.txt'), 'utf8'), /Ada/);

  const second = await startRun(s, { goal: '[ask:Stop?]', workflow: 'linear' });
  const q = (await untilStanding(s, second, 'Question')).question.id;
  t.is((await control(s, second, 'Abort')).body.outcome, 'Applied');
  const late = await s.post(`/api/runs/${second}/answers`, { question: q, answer: 'yes' });
  t.is(late.status, 409);
  t.regex(late.body.detail, /withdrawn/);
  t.true((await history(s, second)).some((e) => e.type === 'QuestionWithdrawn'));
});

test('a run keeps the workflow version it started with while the file changes on disk; new runs take the new one', async (t) => {
  const v1 = `digraph edit { start [kind=start]\n one [kind=agent, prompt="[write:v.txt=1]"]\n g [kind=gate]\n two [kind=agent, prompt="[write:w.txt=old]"]\n done [kind=exit]\n start -> one -> g -> two -> done }`;
  const v2 = `digraph edit { start [kind=start]\n solo [kind=agent, prompt="[write:w.txt=new]"]\n done [kind=exit]\n start -> solo -> done }`;
  const s = await testServer({ workflows: { edit: v1 } });
  t.teardown(() => s.close());
  const oldRun = await startRun(s, { goal: 'g', workflow: 'edit' });
  await untilStanding(s, oldRun, 'Paused');
  writeFileSync(join(s.home, 'workflows', 'edit.dot'), v2);
  const read = async () => (await s.get(`/api/workflows/edit?project=${s.projectId}`)).body;
  const deadline = Date.now() + 5000;
  while ((await read()).steps?.some((st: any) => st.id === 'solo') !== true && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.true((await read()).steps.some((st: any) => st.id === 'solo'), 'the catalog sees the edit without a restart');
  t.is((await control(s, oldRun, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, oldRun, 'Succeeded');
  t.is(readFileSync(join(await dirOf(s, oldRun), 'w.txt'), 'utf8'), 'old');
  const newRun = await startRun(s, { goal: 'g', workflow: 'edit' });
  await untilStanding(s, newRun, 'Succeeded');
  t.is(readFileSync(join(await dirOf(s, newRun), 'w.txt'), 'utf8'), 'new');
  t.not((await detail(s, oldRun)).currentStep, 'solo');
});

test('starting a run on a workflow that does not load is refused with its first errors', async (t) => {
  const s = await testServer({ workflows: { broken: 'digraph broken { start [kind=start]\n a [kind=agent]\n start -> a }' } });
  t.teardown(() => s.close());
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'x', workflow: 'broken' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /workflow broken does not load: .*prompt/);
  const unknown = await s.post('/api/runs', { project: s.projectId, goal: 'x', workflow: 'nope' });
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /unknown workflow "nope"/);
});
