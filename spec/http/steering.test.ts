import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/env.js';
import { controlApplied, eventsOf, setRunCap, untilEnded, untilEvents, worktreeOf } from '../helpers/http-kit.js';
import { testServer, type TestServer, STRICT } from '../helpers/server.js';
import { detail, history, startRun } from '../helpers/steer.js';

// Steering a run over HTTP: revising its goal, messaging it, archiving and resolving it. The tests
// run one at a time on their shared server: run concurrently, a run here now and then never reached
// its first step within 30 s on a loaded 2-core machine (seen twice in ~6 full runs; cause not yet
// found: see the closing note of issue 18).

const test = anyTest as TestFn<{ s: TestServer }>;

// The first step waits for the test's go-ahead (the window to steer in, however slow the machine);
// the second reads the goal as it is then.
const TWO_STEP = `digraph two_step {
  start  [kind=start]
  first  [kind=agent, prompt="first step [until:go]"]
  second [kind=agent, prompt="{{goal}}"]
  done   [kind=exit]
  start -> first -> second -> done
}`;


test.before(async (t) => {
  t.context.s = await testServer({ workflows: { two_step: TWO_STEP, strict: STRICT } });
  await setRunCap(t.context.s, 20);
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const inFirstStep = async (s: TestServer, goal: string): Promise<string> => {
  const runId = await startRun(s, { goal, workflow: 'two_step' });
  await untilEvents(s, runId, 'StepStarted');
  return runId;
};

// Lets the first step end.
const goAhead = async (s: TestServer, runId: string): Promise<void> => {
  writeFileSync(join(await worktreeOf(s, runId), 'go'), '');
};

const listed = async (s: TestServer): Promise<string[]> => ((await s.get('/api/runs')).body as { runId: string }[]).map((r) => r.runId);

test.serial('a revised goal is recorded and the next step reads it; an ended run refuses it with 409', async (t) => {
  const { s } = t.context;
  const runId = await inFirstStep(s, 'old goal [write:goal.txt=old]');
  const r = await s.post(`/api/runs/${runId}/goal`, { goal: 'new goal [write:goal.txt=new]', reason: 'changed my mind' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.goal, 'new goal [write:goal.txt=new]');
  t.is(r.body.run.goal, 'new goal [write:goal.txt=new]');
  await goAhead(s, runId);
  const ended = await untilEnded(s, runId);
  t.is(ended.standing, 'Succeeded');
  const dir = await worktreeOf(s, runId);
  t.is(readFileSync(join(dir, 'goal.txt'), 'utf8'), 'new');
  const [revised, ...more] = await eventsOf(s, runId, 'GoalRevised');
  t.is(more.length, 0);
  t.like(revised.data, { goal: 'new goal [write:goal.txt=new]', previous: 'old goal [write:goal.txt=old]', reason: 'changed my mind' });
  t.regex(readFileSync(join(dir, 'messages.txt'), 'utf8'), /goal of this run was revised/);
  const late = await s.post(`/api/runs/${runId}/goal`, { goal: 'too late' });
  t.is(late.status, 409);
  t.regex(late.body.detail, /ended/);
  t.is((await s.get(`/api/runs/${runId}`)).body.goal, 'new goal [write:goal.txt=new]');
});

test.serial('a Resume message goes into the live turn', async (t) => {
  const { s } = t.context;
  const runId = await inFirstStep(s, 'listen');
  const r = await s.post(`/api/runs/${runId}/messages`, { text: 'look at the README too', delivery: 'Resume' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.true(r.body.delivered);
  t.is(r.body.detail, null);
  await goAhead(s, runId);
  const dir = await worktreeOf(s, runId);
  t.is(readFileSync(join(dir, 'messages.txt'), 'utf8'), 'look at the README too\n');
  const [sent] = await eventsOf(s, runId, 'MessageSent');
  const [delivered] = await eventsOf(s, runId, 'MessageDelivered');
  t.is(delivered.data.messageId, sent.data.messageId);
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
});

test.serial('a Hold message is held, with a detail, and opens the next turn', async (t) => {
  const { s } = t.context;
  const runId = await inFirstStep(s, 'second step');
  const r = await s.post(`/api/runs/${runId}/messages`, { text: 'when you can [write:held.txt=read]', delivery: 'Hold' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.false(r.body.delivered);
  t.is(typeof r.body.detail, 'string');
  t.true(r.body.detail.length > 0);
  t.is((await eventsOf(s, runId, 'MessageDelivered')).length, 0);
  await goAhead(s, runId);
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
  const dir = await worktreeOf(s, runId);
  t.is(readFileSync(join(dir, 'held.txt'), 'utf8'), 'read');
  t.false(existsSync(join(dir, 'messages.txt')));
  const [sent] = await eventsOf(s, runId, 'MessageSent');
  const steps = await eventsOf(s, runId, 'StepStarted');
  t.deepEqual(steps.map((e) => e.data.node), ['first', 'second']);
  t.deepEqual(steps[1].data.messages, [sent.data.messageId]);
});

test.serial('a blank message is 400, and a message to an ended run is refused', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'quick', workflow: 'linear' });
  for (const text of ['', '   ', '\n']) {
    const r = await s.post(`/api/runs/${runId}/messages`, { text, delivery: 'Resume' });
    t.is(r.status, 400, JSON.stringify(text));
    t.regex(r.body.detail, /text/);
  }
  await untilEnded(s, runId);
  const late = await s.post(`/api/runs/${runId}/messages`, { text: 'hello?', delivery: 'Hold' });
  t.is(late.status, 409);
  t.is((await eventsOf(s, runId, 'MessageSent')).length, 0);
});

test.serial('archive: refused while the run is going; archived it leaves the list, its worktree goes, its branch stays; Active brings it back', async (t) => {
  const { s } = t.context;
  const runId = await inFirstStep(s, 'archive me');
  const early = await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  t.is(early.status, 409);
  t.regex(early.body.detail, /going/);
  t.true((await listed(s)).includes(runId));
  await goAhead(s, runId);
  await untilEnded(s, runId);
  const dir = await worktreeOf(s, runId);
  t.true(existsSync(dir));
  const r = await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.state, 'Archived');
  t.true(r.body.run.archived);
  t.false((await listed(s)).includes(runId));
  t.is((await s.get(`/api/runs/${runId}`)).status, 200);
  await eventually(() => existsSync(dir), (there) => !there);
  await untilEvents(s, runId, 'WorktreesRemoved');
  const branch = execFileSync('git', ['rev-parse', '--verify', `refs/heads/svc/${runId}`], { cwd: s.repo, encoding: 'utf8' });
  t.regex(branch.trim(), /^[0-9a-f]{40}$/);
  const again = await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  t.is(again.status, 200);
  t.is((await eventsOf(s, runId, 'RunArchived')).length, 1);
  const back = await s.post(`/api/runs/${runId}/archive`, { state: 'Active' });
  t.is(back.status, 200);
  t.false(back.body.run.archived);
  t.true((await listed(s)).includes(runId));
});

test.serial('resolve: only a run that ended without success; twice has no effect', async (t) => {
  const { s } = t.context;
  const good = await startRun(s, { goal: 'fine', workflow: 'linear' });
  const bad = await startRun(s, { goal: 'broken [fail]', workflow: 'strict' });
  t.is((await untilEnded(s, good)).standing, 'Succeeded');
  const refused = await s.post(`/api/runs/${good}/resolve`, {});
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /without success/);
  t.false((await detail(s, good)).resolved);
  const failed = await untilEnded(s, bad);
  t.is(failed.standing, 'Failed');
  t.false(failed.resolved);
  const r = await s.post(`/api/runs/${bad}/resolve`, { reason: 'not needed' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.true(r.body.run.resolved);
  const twice = await s.post(`/api/runs/${bad}/resolve`, {});
  t.is(twice.status, 200);
  t.true(twice.body.run.resolved);
  t.is((await eventsOf(s, bad, 'RunResolved')).length, 1);
});

test.serial('resolve is refused on a run still going, and works on an aborted run', async (t) => {
  const { s } = t.context;
  const runId = await inFirstStep(s, 'going');
  const early = await s.post(`/api/runs/${runId}/resolve`, {});
  t.is(early.status, 409);
  t.is((await controlApplied(s, runId, 'Abort')).body.outcome, 'Applied');
  const r = await s.post(`/api/runs/${runId}/resolve`, {});
  t.is(r.status, 200);
  t.like(r.body.run, { standing: 'Aborted', resolved: true });
  t.deepEqual((await history(s, runId)).filter((e) => e.type === 'RunResolved').length, 1);
});

// An archived run is out of the list and its worktrees are gone: no control may make it go again
// while it stays archived (the spec's rule: a run still going is never archived).
test.serial('an archived run never goes again while archived', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'broken [fail]', workflow: 'strict' });
  t.is((await untilEnded(s, runId)).standing, 'Failed');
  t.is((await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' })).status, 200);
  const d = await detail(s, runId);
  const r = await s.post(`/api/runs/${runId}/control`, { position: d.position, action: 'Retry' });
  t.true(r.status === 409 || r.body.run?.archived === false, `Retry answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  await untilEnded(s, runId);
  let archived = false;
  for (const e of await history(s, runId)) {
    if (e.type === 'RunArchived') archived = true;
    if (e.type === 'RunUnarchived') archived = false;
    t.false(archived && ['RunStarted', 'StepStarted'].includes(e.type), `${e.type} (seq ${e.seq}) while archived`);
  }
});

test.serial('a Resume message to a paused run resumes it, and the resumed turn reads the message', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'pause me [sleepfresh:20000]', workflow: 'linear' });
  await untilEvents(s, runId, 'StepStarted');
  t.is((await controlApplied(s, runId, 'Pause')).body.outcome, 'Applied');
  const r = await s.post(`/api/runs/${runId}/messages`, { text: 'carry on [write:resumed.txt=yes]', delivery: 'Resume' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.true(r.body.delivered);
  t.is((await eventsOf(s, runId, 'RunResumed')).length, 1);
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
  t.is(readFileSync(join(await worktreeOf(s, runId), 'resumed.txt'), 'utf8'), 'yes');
});

test.serial('a question is answered over HTTP: the agent gets the answer, a second answer is 409', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: '[ask:Which colour?|red|blue]', workflow: 'linear' });
  const asking = await eventually(() => detail(s, runId), (d) => d.standing === 'Question');
  t.like(asking.question, { prompt: 'Which colour?', options: ['red', 'blue'] });
  const id = asking.question.id as string;
  const typed = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: 'green' });
  t.is(typed.status, 400);
  const wrong = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['green'] });
  t.is(wrong.status, 400);
  const r = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['blue'] });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.true(r.body.delivered);
  t.is((await untilEnded(s, runId)).standing, 'Succeeded');
  t.regex(readFileSync(join(await worktreeOf(s, runId), 'answer.txt'), 'utf8'), /blue/);
  const again = await s.post(`/api/runs/${runId}/answers`, { question: id, answer: ['red'] });
  t.is(again.status, 409);
});
