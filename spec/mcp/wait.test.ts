import test from 'ava';
import { eventually } from '../helpers/env.js';
import { control, startRun, untilStanding } from '../helpers/steer.js';
import { mcpServer, release } from './helpers/real.js';
import { call, json } from './helpers/call.js';

// wait_for_run on the real server: many waiters on one run wake on one change; an ended run
// answers at once; a question wakes a waiter; the time running out answers Nothing; a client that
// goes away stops its wait. (Wake latency is measured in bench/, not asserted here.)

type Waited = { changed: string; run: { standing: string } };

test('200 concurrent waiters on one run all wake after one change', async (t) => {
  const s = await mcpServer();
  t.teardown(() => s.close());
  const client = await s.connect();
  t.teardown(() => client.close());
  const runId = await s.running();
  const waits = Array.from({ length: 200 }, () => call(client, 'wait_for_run', { run: runId, timeout: 120 }));
  await eventually(() => s.service.waiting, (n) => n === 200);
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  const answers = await Promise.all(waits);
  t.is(answers.length, 200);
  for (const a of answers) {
    const body = json<Waited>(a);
    t.is(body.changed, 'Standing');
    t.is(body.run.standing, 'Paused');
  }
  t.is(s.service.waiting, 0);
});

test('an ended run answers AlreadyEnded at once; a question answers Question', async (t) => {
  const s = await mcpServer();
  t.teardown(() => s.close());
  const client = await s.connect();
  t.teardown(() => client.close());
  t.is(json(await call(client, 'wait_for_run', { run: await s.ended() })).changed, 'AlreadyEnded');
  t.is(s.service.waiting, 0);
  // The agent asks only once the waiter is in: its go-ahead is a file the test writes.
  const runId = await startRun(s, { goal: '[until:go][ask:Which?|a|b]', workflow: 'two' });
  await eventually(() => s.get(`/api/runs/${runId}/detail`), (r) => r.body.phase === 'Executing');
  const waiting = call(client, 'wait_for_run', { run: runId });
  await eventually(() => s.service.waiting, (n) => n === 1);
  await release(s, runId, 'go');
  const woke = json<Waited>(await waiting);
  t.is(woke.changed, 'Question');
  t.is(woke.run.standing, 'Question');
});

test('the time running out answers Nothing; a wait without timeout outlives it, and answers Ended', async (t) => {
  const s = await mcpServer();
  t.teardown(() => s.close());
  const client = await s.connect();
  t.teardown(() => client.close());
  const runId = await s.running();
  const long = call(client, 'wait_for_run', { run: runId });
  await eventually(() => s.service.waiting, (n) => n === 1);
  const short = json<Waited>(await call(client, 'wait_for_run', { run: runId, timeout: 1 }));
  t.is(short.changed, 'Nothing');
  t.is(short.run.standing, 'Running');
  // the default (60 s) wait is still held after a 1 s one has run out
  t.is(s.service.waiting, 1);
  t.is((await control(s, runId, 'Abort')).body.outcome, 'Applied');
  t.is(json(await long).changed, 'Ended');
  t.is(s.service.waiting, 0);
});

test('a waiter whose client goes away stops waiting', async (t) => {
  const s = await mcpServer();
  t.teardown(() => s.close());
  const client = await s.connect();
  const runId = await s.running();
  const waiting = call(client, 'wait_for_run', { run: runId, timeout: 300 }).catch(() => 'gone');
  await eventually(() => s.service.waiting, (n) => n === 1);
  await client.close();
  await eventually(() => s.service.waiting, (n) => n === 0);
  t.is(s.service.waiting, 0);
  await waiting;
  t.is((await untilStanding(s, runId, 'Running')).standing, 'Running', 'the run itself is untouched');
});
