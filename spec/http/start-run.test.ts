import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { sleep } from '../helpers/env.js';
import { untilEnded, untilEvents } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { detail, history } from '../helpers/steer.js';

// POST /api/runs: every field of the body, each with its rule, against a real server.

const test = anyTest as TestFn<{ s: TestServer }>;

const PLAIN = `digraph plain {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}`;

test.before(async (t) => {
  t.context.s = await testServer({ workflows: { plain: PLAIN } });
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const start = (s: TestServer, body: Record<string, unknown>) => s.post('/api/runs', { project: s.projectId, workflow: 'linear', ...body });

test('a run is created with a goal: the answer is {runId} and the run reads back in the HTTP shape', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: 'say hello' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(typeof r.body.runId, 'string');
  t.true(r.body.runId.length > 0);
  const got = await s.get(`/api/runs/${r.body.runId}`);
  t.is(got.status, 200);
  t.like(got.body, { runId: r.body.runId, workflowName: 'linear', goal: 'say hello', project: s.projectId, title: 'say hello' });
  t.is(typeof got.body.phase, 'string');
});

test('goal is required unless a ticket is given', async (t) => {
  const { s } = t.context;
  const r = await start(s, {});
  t.is(r.status, 400);
  t.regex(r.body.detail, /goal/);
  const blank = await start(s, { goal: '   ' });
  t.is(blank.status, 400);
  t.regex(blank.body.detail, /goal/);
});

test('project is required; an unknown project is 404', async (t) => {
  const { s } = t.context;
  const missing = await s.post('/api/runs', { goal: 'x', workflow: 'linear' });
  t.is(missing.status, 400);
  t.regex(missing.body.detail, /project/);
  const unknown = await s.post('/api/runs', { project: 'no-such-project', goal: 'x' });
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /no-such-project/);
});

test('an unknown workflow is 400 naming it', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: 'x', workflow: 'nonesuch' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /nonesuch/);
});

test('title: one line of at most 80 characters; 81, a line break or blank is 400', async (t) => {
  const { s } = t.context;
  const eighty = 'a'.repeat(80);
  const ok = await start(s, { goal: 'x', title: eighty, start: false });
  t.is(ok.status, 200, JSON.stringify(ok.body));
  t.is((await s.get(`/api/runs/${ok.body.runId}`)).body.title, eighty);
  for (const title of ['a'.repeat(81), 'two\nlines', 'cr\rhere', '', '  ']) {
    const bad = await start(s, { goal: 'x', title, start: false });
    t.is(bad.status, 400, `title ${JSON.stringify(title)}`);
    t.regex(bad.body.detail, /title/);
  }
});

test('the title limit counts characters, not UTF-16 units: 80 emoji pass, 81 do not', async (t) => {
  const { s } = t.context;
  const ok = await start(s, { goal: 'x', title: '😀'.repeat(80), start: false });
  t.is(ok.status, 200, JSON.stringify(ok.body));
  t.is((await s.get(`/api/runs/${ok.body.runId}`)).body.title, '😀'.repeat(80));
  const bad = await start(s, { goal: 'x', title: '😀'.repeat(81), start: false });
  t.is(bad.status, 400);
});

test('without a title, the title is the first line of the goal, cut to 80 characters', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: `${'b'.repeat(100)}\nsecond line`, start: false });
  t.is(r.status, 200);
  const title = (await s.get(`/api/runs/${r.body.runId}`)).body.title as string;
  t.true(title.length <= 80);
  t.true(title.startsWith('bbbb'));
  t.false(title.includes('second'));
});

// A generated title is cut by characters, never in the middle of one (an emoji is two UTF-16 units).
test('a generated title never splits a character in half', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: '😀'.repeat(100), start: false });
  t.is(r.status, 200);
  const title = (await s.get(`/api/runs/${r.body.runId}`)).body.title as string;
  t.false(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(title), JSON.stringify(title));
  t.true([...title].length <= 80);
});

test('harness must be claude, codex or opencode', async (t) => {
  const { s } = t.context;
  for (const harness of ['gpt', 'Claude', '', 7]) {
    const bad = await start(s, { goal: 'x', harness, start: false });
    t.is(bad.status, 400, `harness ${JSON.stringify(harness)}`);
    t.regex(bad.body.detail, /harness/);
  }
});

test('model only together with harness; together they reach the step', async (t) => {
  const { s } = t.context;
  const alone = await start(s, { goal: 'x', model: 'm-1' });
  t.is(alone.status, 400);
  t.regex(alone.body.detail, /model/);
  const both = await start(s, { goal: 'x', harness: 'codex', model: 'm-1' });
  t.is(both.status, 200, JSON.stringify(both.body));
  const [step] = await untilEvents(s, both.body.runId, 'StepStarted');
  t.is(step.data.harness, 'codex');
  t.is(step.data.model, 'm-1');
  t.is((await untilEnded(s, both.body.runId)).standing, 'Succeeded');
});

test('start: false records the run as Created and it does not start; Resume starts it', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: 'later', start: false });
  t.is(r.status, 200);
  const runId = r.body.runId as string;
  const d = await detail(s, runId);
  t.is(d.standing, 'Created');
  t.true(d.allowedActions.includes('Resume'));
  await sleep(400);
  t.is((await detail(s, runId)).standing, 'Created');
  t.is((await s.get(`/api/runs/${runId}`)).body.phase, 'Created');
  t.deepEqual((await history(s, runId)).map((e) => e.type), ['RunCreated']);
  const resumed = await s.post(`/api/runs/${runId}/control`, { position: d.position, action: 'Resume' });
  t.is(resumed.body.outcome, 'Applied', JSON.stringify(resumed.body));
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
});

test('start must be a boolean', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: 'x', start: 'no' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /start/);
});

test('the legacy ticket becomes the goal and the input ticket', async (t) => {
  const { s } = t.context;
  const r = await start(s, { ticket: 'ENG-42', start: false });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is((await s.get(`/api/runs/${r.body.runId}`)).body.goal, 'ENG-42');
  const [created] = await history(s, r.body.runId);
  t.is(created.type, 'RunCreated');
  t.is(created.data.inputs.ticket, 'ENG-42');
});

test('with both goal and ticket, the goal stays and the ticket is still an input', async (t) => {
  const { s } = t.context;
  const r = await start(s, { goal: 'fix it', ticket: 'ENG-7', start: false });
  t.is(r.status, 200);
  t.is((await s.get(`/api/runs/${r.body.runId}`)).body.goal, 'fix it');
  t.is((await history(s, r.body.runId))[0].data.inputs.ticket, 'ENG-7');
});

test('a ticket on a workflow that does not declare the input ticket is 400 saying it is undeclared', async (t) => {
  const { s } = t.context;
  const r = await start(s, { ticket: 'ENG-42', workflow: 'plain' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /ticket/);
  t.regex(r.body.detail, /not declared/);
});

test('inputs: an object of strings, each declared by the workflow', async (t) => {
  const { s } = t.context;
  const ok = await start(s, { goal: 'x', inputs: { ticket: 'T-1' }, start: false });
  t.is(ok.status, 200);
  const undeclared = await start(s, { goal: 'x', inputs: { colour: 'red' } });
  t.is(undeclared.status, 400);
  t.regex(undeclared.body.detail, /colour/);
  for (const inputs of [{ ticket: 3 }, ['a'], 'ticket=1']) {
    const bad = await start(s, { goal: 'x', inputs });
    t.is(bad.status, 400, `inputs ${JSON.stringify(inputs)}`);
    t.regex(bad.body.detail, /inputs/);
  }
});

test('without a workflow the project default is used', async (t) => {
  const { s } = t.context;
  const project = (await s.get(`/api/projects/${s.projectId}`)).body;
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'x', start: false });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is((await s.get(`/api/runs/${r.body.runId}`)).body.workflowName, project.defaultWorkflow);
});

test('GET of an unknown run is 404 with a detail', async (t) => {
  const { s } = t.context;
  const r = await s.get('/api/runs/r-does-not-exist');
  t.is(r.status, 404);
  t.regex(r.body.detail, /r-does-not-exist/);
});

test('every run started is listed, newest first', async (t) => {
  const { s } = t.context;
  const a = (await start(s, { goal: 'first of two', start: false })).body.runId as string;
  await sleep(5); // ids order by millisecond only (see the report on lib/ids.ts)
  const b = (await start(s, { goal: 'second of two', start: false })).body.runId as string;
  const ids = ((await s.get('/api/runs')).body as { runId: string }[]).map((r) => r.runId);
  t.true(ids.includes(a) && ids.includes(b));
  t.true(ids.indexOf(b) < ids.indexOf(a));
});
