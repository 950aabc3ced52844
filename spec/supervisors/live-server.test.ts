import '../helpers/env.js';
// Serial: the CLIs read the model server's address from process.env, which the tests share.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { callMcp, say, sayCostly } from '../fixtures/model-server/script.js';
import { sleep } from '../helpers/env.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { liveKit, types } from './live-kit.js';

// The live supervisors in the REAL server, end to end over HTTP: its turns run on the real claude
// CLI against the scripted model server and act through the server's own /mcp?supervisor=<key>.

test.serial('a question on an owned run wakes it; asked in the chat, it answers through /mcp?supervisor= with a reason and the run goes on', async (t) => {
  t.timeout(400_000);
  const k = await liveKit(t, [say('Noted: a run asks something.')]);
  t.is((await k.patch(k.global, { actions: { messageAndControl: 'DoIt' } })).status, 200);
  const runId = await startRun(k.s, { goal: '[ask:What should I say?]', workflow: 'linear' });
  const asked = await untilStanding(k.s, runId, 'Question', 60_000);

  const woken = await k.until(k.global, (c) => c.some((e) => e.type === 'TurnEnded'));
  t.deepEqual(woken.filter((e) => e.type === 'WakeNoticed').map((e) => [e.data.kind, e.data.runId]), [['question', runId]]);
  const wakeBody = JSON.stringify(k.model.scriptedBodies()[0]);
  t.true(wakeBody.includes(`run ${runId} asked a question`) && wakeBody.includes('What should I say?'), 'the wake and the run brief are in its prompt');

  k.model.push(
    callMcp('get_run', { run: runId }, 'Checking the run.'),
    callMcp('answer_question', { run: runId, question: asked.question.id, answer: 'hi', reason: 'the person in the chat asked me to' }),
    say('Answered the question with hi.'),
  );
  const written = await k.write(k.global, `answer the question on run ${runId} with 'hi'`, 'ann');
  t.is(written.status, 200, JSON.stringify(written.body));
  t.like(written.body, { entry: { type: 'PersonWrote', data: { sender: 'ann' } }, heldBecause: null });

  await untilStanding(k.s, runId, 'Succeeded', 150_000);
  const chat = await k.until(k.global, (c) => c.filter((e) => e.type === 'TurnEnded').length >= 2);
  t.true(JSON.stringify(k.model.scriptedBodies()[2]).includes(asked.question.id), 'get_run answered through the endpoint: the question id reached the model');
  const answered = (await history(k.s, runId)).find((e) => e.type === 'QuestionAnswered');
  t.is(answered.data.answer, 'hi');
  t.like(answered.data.by, { kind: 'supervisor', name: k.global });
  t.is(answered.data.reason, 'the person in the chat asked me to', 'the reason is recorded on the run');
  t.deepEqual(chat.filter((e) => e.type === 'PersonWrote').map((e) => e.data.text), [`answer the question on run ${runId} with 'hi'`]);
  const action = chat.find((e) => e.type === 'ActionTaken');
  t.like(action?.data, { tool: 'answer_question', run: runId, reason: 'the person in the chat asked me to' });
  t.deepEqual(chat.filter((e) => e.type === 'SupervisorReplied').map((e) => e.data.text), ['Noted: a run asks something.', 'Checking the run.', 'Answered the question with hi.']);
  const order = types(chat);
  t.true(order.indexOf('PersonWrote') < order.indexOf('ActionTaken') && order.indexOf('ActionTaken') < order.lastIndexOf('SupervisorReplied'), order.join(' '));
  t.true(chat.filter((e) => e.type === 'TurnEnded').every((e) => e.data.outcome === 'success' && e.data.cost._tag === 'Reported'), 'each turn ended with a known cost');
  const view = (await k.s.get(`/api/supervisors/${k.global}`)).body;
  t.true(view.spentTodayUsd > 0, 'the turns\' costs are in the ledger');
  t.is((await detail(k.s, runId)).standing, 'Succeeded');
});

test.serial('Ask me first: a card appears, is approved over HTTP, the answer is carried out, and the supervisor is woken with the decision', async (t) => {
  t.timeout(400_000);
  const k = await liveKit(t, []);
  // the question itself does not wake it here: only the person does (the switch works)
  t.is((await k.patch(k.global, { wakeOn: { question: false } })).status, 200);
  const runId = await startRun(k.s, { goal: '[ask:What should I say?]', workflow: 'linear' });
  const asked = await untilStanding(k.s, runId, 'Question', 60_000);
  k.model.push(
    callMcp('answer_question', { run: runId, question: asked.question.id, answer: 'hi', reason: 'the person asked me to' }),
    say('I asked a person to approve the answer.'),
    say('The answer was approved and given.'),
  );
  t.is((await k.write(k.global, `answer the question on run ${runId} with 'hi'`)).status, 200);
  const asking = await k.until(k.global, (c) => c.some((e) => e.type === 'TurnEnded'));
  t.false(asking.some((e) => e.type === 'WakeNoticed'), 'wakeOn.question off: no wake from the question');
  t.like(asking.find((e) => e.type === 'ApprovalRequested')?.data, { tool: 'answer_question', run: runId, reason: 'the person asked me to' });
  t.is((await detail(k.s, runId)).standing, 'Question', 'nothing is done before the decision');

  const card = (await k.s.get(`/api/supervisors/${k.global}/approvals`)).body.approvals[0].card as string;
  const decided = await k.s.post(`/api/supervisors/${k.global}/approvals/${card}`, { decision: 'Approve', note: 'go ahead' }, { 'svc-setting-source': 'Ada' });
  t.is(decided.status, 200, JSON.stringify(decided.body));
  t.like(decided.body, { decided: { decision: 'Approve', result: 'Applied' } });
  await untilStanding(k.s, runId, 'Succeeded', 150_000);
  const answered = (await history(k.s, runId)).find((e) => e.type === 'QuestionAnswered');
  t.like(answered.data, { answer: 'hi', by: { kind: 'supervisor', name: k.global } });

  const chat = await k.until(k.global, (c) => c.filter((e) => e.type === 'TurnEnded').length >= 2);
  const order = types(chat);
  t.true(order.indexOf('ApprovalDecided') < order.lastIndexOf('TurnStarted'), `the decision woke a second turn: ${order.join(' ')}`);
  const woken = JSON.stringify(k.model.scriptedBodies().at(-1));
  t.true(woken.includes(`A person approved card ${card}`) && woken.includes('go ahead'), 'the decision is in the woken turn\'s prompt');
  t.is(chat.filter((e) => e.type === 'SupervisorReplied').at(-1)?.data.text, 'The answer was approved and given.');
});

test.serial('the spending limit: a turn whose reported cost passes it stops further actions and turns; the chat says why', async (t) => {
  t.timeout(400_000);
  // two million input tokens: dollars at any claude model's price
  const k = await liveKit(t, [sayCostly('That was a long think.', 2_000_000), say('never asked')]);
  t.is((await k.patch(k.global, { dailyLimitUsd: 1, actions: { messageAndControl: 'DoIt' }, wakeOn: { question: false } })).status, 200);
  const runId = await startRun(k.s, { goal: '[ask:What should I say?]', workflow: 'linear' });
  const asked = await untilStanding(k.s, runId, 'Question', 60_000);
  t.is((await k.write(k.global, 'think hard')).status, 200);
  const chat = await k.until(k.global, (c) => c.some((e) => e.type === 'WakesHeld'));
  const end = chat.find((e) => e.type === 'TurnEnded')!;
  t.true(end.data.cost._tag === 'Reported' && end.data.cost.usd > 1, `claude's own total_cost_usd: ${JSON.stringify(end.data.cost)}`);
  t.regex(chat.find((e) => e.type === 'WakesHeld')!.data.reason, /reached today's spending limit/);
  const view = (await k.s.get(`/api/supervisors/${k.global}`)).body;
  t.true(view.spentTodayUsd > 1);
  t.regex(view.heldBecause, /spending limit/);

  const again = await k.write(k.global, 'and again');
  t.regex(again.body.heldBecause, /spending limit/, 'the answer to the message says why it waits');
  const client = new Client({ name: 'limit-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${k.s.url}/mcp?supervisor=${encodeURIComponent(view.key)}`), { requestInit: { headers: { Authorization: `Bearer ${ensureToken(k.s.home)}` } } }));
  t.teardown(() => client.close());
  const refused = await call(client, 'answer_question', { run: runId, question: asked.question.id, answer: 'hi', reason: 'trying anyway' });
  t.true(refused.isError, 'an action at the limit is refused');
  t.regex(textOf(refused), /spending limit/);
  await sleep(1000);
  const after = await k.chat(k.global);
  t.is(after.filter((e) => e.type === 'TurnStarted').length, 1, 'no further turn today');
  t.is(after.filter((e) => e.type === 'WakesHeld').length, 1, 'the reason is said once');
  t.is(k.model.scriptedBodies().length, 1);
  t.is((await detail(k.s, runId)).standing, 'Question');
});
