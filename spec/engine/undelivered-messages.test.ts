import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { control, detail, history, startRun } from '../helpers/steer.js';

// A message the run ended with still held never reached an agent: that is recorded
// (MessageUndelivered, with why) and shown where people and agents look: the thread and the run's
// detail (get_run), instead of vanishing.

test('a run aborted with a held message records it as undelivered, in the thread and in the run\'s detail', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: '[sleep:60000]', workflow: 'linear' });
  await eventually(() => history(s, runId), (h) => h.some((e) => e.type === 'StepSessionStarted'));
  const sent = (await s.post(`/api/runs/${runId}/messages`, { text: 'also update the changelog', delivery: 'Hold' })).body;
  t.is(sent.delivered, false);
  t.is((await control(s, runId, 'Abort', { reason: 'changed my mind' })).body.outcome, 'Applied');

  const d = await detail(s, runId);
  t.is(d.undeliveredMessages.length, 1);
  t.like(d.undeliveredMessages[0], { text: 'also update the changelog', reason: 'the run was aborted before a turn took it' });
  const events = await history(s, runId);
  t.deepEqual(events.filter((e) => e.type === 'MessageUndelivered').map((e) => e.data.messageId), [d.undeliveredMessages[0].id]);
  const rows = (await s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows as any[];
  t.true(rows.some((r) => r.kind === 'note' && r.text === 'message not delivered: the run was aborted before a turn took it'));
});

test('a run that ends with nothing held reports no undelivered messages', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'quick', workflow: 'linear' });
  const d = await eventually(() => detail(s, runId), (r) => r.phase === 'Ended');
  t.is(d.undeliveredMessages, undefined);
});
