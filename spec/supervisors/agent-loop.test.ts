import '../helpers/env.js';
// Serial: the CLIs read the model server's address from process.env, which the tests share.
import test from 'ava';
import { newId } from '../../lib/ids.js';
import { SupervisorAgents } from '../../lib/supervisors/agent/agents.js';
import { DEFAULT_PRICES } from '../../lib/supervisors/agent/prices.js';
import { fixturePort, type FixturePort } from '../fixtures/supervisors/port.js';
import { startModelServer, type ModelServer } from '../fixtures/model-server/server.js';
import { say, type ModelTurn } from '../fixtures/model-server/script.js';
import { eventually } from '../helpers/env.js';
import { turnKit, type TurnKit } from './turn-kit.js';

// The live agent's loop on the real claude CLI against the scripted model server, with part 1
// stood in for by a fixture port: batching, held wakes, costs, the limit, a cut-off turn.

const KEY = 'loop-key';

interface Loop { kit: TurnKit; port: FixturePort; agents: SupervisorAgents; model: ModelServer; chat(id: string): { seq: number; type: string; data: any }[] }

const loop = async (t: import('ava').ExecutionContext, script: ModelTurn[], setup?: (p: FixturePort, kit: TurnKit) => void): Promise<Loop> => {
  const kit = await turnKit(KEY);
  const model = await startModelServer(script);
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test' });
  const port = fixturePort();
  port.add('sup', { key: KEY });
  setup?.(port, kit);
  const journal = kit.s.service.core.journal;
  const agents = new SupervisorAgents({ journal, port, turn: kit.deps, prices: () => DEFAULT_PRICES, defaultHarness: () => 'claude', newId, now: () => new Date() });
  agents.start();
  t.teardown(async () => (await agents.stop(), await model.close(), await kit.close()));
  return { kit, port, agents, model, chat: (id) => journal.read(port.chatStream(id)) as any };
};

const types = (entries: { type: string }[]) => entries.map((e) => e.type);
const ended = (l: Loop, n: number) => eventually(() => l.chat('sup'), (c) => c.filter((e) => e.type === 'TurnEnded').length >= n, 150_000);

test.serial('one turn at a time: messages written during a turn are batched into the next one', async (t) => {
  t.timeout(300_000);
  let release!: () => void;
  const gate = new Promise((r) => (release = () => r(undefined)));
  const l = await loop(t, [{ kind: 'reply', text: 'First answer.', gate }, say('Both seen.')]);
  l.agents.write('sup', 'FIRST message', 'ann');
  await l.model.waitForScripted(1);
  l.agents.write('sup', 'SECOND message', 'ann');
  l.agents.write('sup', 'THIRD message', null);
  release();
  const chat = await ended(l, 2);
  t.is(chat.filter((e) => e.type === 'TurnStarted').length, 2, 'two turns for three messages');
  const bodies = l.model.scriptedBodies().map((b) => JSON.stringify(b));
  t.is(bodies.length, 2);
  t.true(bodies[0]!.includes('FIRST message') && !bodies[0]!.includes('SECOND message'));
  t.true(bodies[1]!.includes('SECOND message') && bodies[1]!.includes('THIRD message'), 'the second turn holds both');
  t.deepEqual(chat.filter((e) => e.type === 'SupervisorReplied').map((e) => e.data.text), ['First answer.', 'Both seen.']);
  const second = chat.filter((e) => e.type === 'TurnStarted')[1]!;
  t.truthy(second.data.resumeSession, 'the second turn resumes the first one\'s session');
  t.true(chat.filter((e) => e.type === 'TurnEnded').every((e) => e.data.cost._tag === 'Known' && e.data.cost.usd > 0), 'claude\'s cost is known');
  t.is(l.port.sups.get('sup')!.costs.length, 2, 'each turn\'s cost went to the ledger');
});

test.serial('no wake while paused: the chat says why, and the wake runs once the pause ends', async (t) => {
  t.timeout(300_000);
  const l = await loop(t, [say('Back again.')], (p) => void (p.sups.get('sup')!.held = 'paused until tomorrow'));
  l.agents.write('sup', 'are you there?', null);
  const held = await eventually(() => l.chat('sup'), (c) => c.some((e) => e.type === 'WakesHeld'));
  t.is(held.find((e) => e.type === 'WakesHeld')!.data.reason, 'paused until tomorrow');
  l.agents.write('sup', 'still there?', null);
  await new Promise((r) => setTimeout(r, 500));
  t.false(types(l.chat('sup')).includes('TurnStarted'), 'no turn while paused');
  t.is(l.chat('sup').filter((e) => e.type === 'WakesHeld').length, 1, 'the reason is said once');
  t.is(l.model.scriptedBodies().length, 0);
  l.port.sups.get('sup')!.held = null;
  l.agents.poke('sup');
  await ended(l, 1);
  const body = JSON.stringify(l.model.scriptedBodies()[0]);
  t.true(body.includes('are you there?') && body.includes('still there?'), 'the held wakes are given to the turn');
});

test.serial('the daily limit: a turn that reaches it stops further turns, and the chat says so', async (t) => {
  t.timeout(300_000);
  const l = await loop(t, [say('Spent.'), say('never')], (p) => void (p.sups.get('sup')!.dailyLimitUsd = 0.000001));
  l.agents.write('sup', 'do something', null);
  const chat = await eventually(() => l.chat('sup'), (c) => c.some((e) => e.type === 'WakesHeld'), 150_000);
  t.regex(chat.find((e) => e.type === 'WakesHeld')!.data.reason, /spending limit is reached/);
  l.agents.write('sup', 'and again', null);
  await new Promise((r) => setTimeout(r, 500));
  t.is(l.chat('sup').filter((e) => e.type === 'TurnStarted').length, 1, 'no second turn today');
  t.is(l.model.scriptedBodies().length, 1);
});

test.serial('unknown cost: a codex turn on a model the price table lacks is recorded as unknown, not zero', async (t) => {
  t.timeout(300_000);
  const { writeCodexConfig } = await import('../harness/sandbox.js');
  const l = await loop(t, [say('From codex.')], (p) => void p.add('sup', { key: KEY, harness: 'codex' }));
  writeCodexConfig({ root: '', repo: '', env: process.env, cleanup: () => undefined }, l.model.url);
  l.agents.write('sup', 'hello codex', null);
  const chat = await ended(l, 1);
  const end = chat.find((e) => e.type === 'TurnEnded')!;
  t.is(end.data.outcome, 'success', end.data.summary);
  t.deepEqual(end.data.cost, { _tag: 'Unknown', why: 'no price for codex default model in the price table' });
  t.deepEqual(l.port.sups.get('sup')!.costs.map((c) => c.cost._tag), ['Unknown']);
  t.is(l.port.sups.get('sup')!.spentUsd, 0);
});

test.serial('a turn cut off by a crash is recorded as interrupted and runs again over the same entries', async (t) => {
  t.timeout(300_000);
  const l = await loop(t, [say('Recovered.')], (p, kit) => {
    // what a SIGKILL mid-turn leaves: the message and the turn's start, and no end
    const j = kit.s.service.core.journal;
    const stream = p.chatStream('sup');
    j.append(stream, 0, [{ type: 'PersonWrote', data: { text: 'BEFORE the crash', sender: null } }], new Date().toISOString());
    j.append(stream, 1, [{ type: 'TurnStarted', data: { turnId: 'tcrashed', harness: 'claude', upTo: 1 } }], new Date().toISOString());
  });
  const chat = await ended(l, 1);
  t.deepEqual(types(chat).slice(0, 4), ['PersonWrote', 'TurnStarted', 'TurnInterrupted', 'TurnStarted']);
  t.is(chat[2]!.data.turnId, 'tcrashed');
  t.true(JSON.stringify(l.model.scriptedBodies()[0]).includes('BEFORE the crash'), 'the retried turn is given the same message');
  t.deepEqual(chat.filter((e) => e.type === 'SupervisorReplied').map((e) => e.data.text), ['Recovered.']);
});

test.serial('a question on an owned run wakes it; asked in the chat, it answers through /mcp?supervisor= and the run goes on', async (t) => {
  t.timeout(300_000);
  const { callMcp } = await import('../fixtures/model-server/script.js');
  const { control, detail, history, untilStanding } = await import('../helpers/steer.js');
  const l = await loop(t, [say('Noted: run asks something.')]);
  const created = await l.kit.s.post('/api/runs', { project: l.kit.s.projectId, goal: '[ask:What should I say?]', workflow: 'linear', start: false });
  const runId = created.body.runId as string;
  l.port.sups.get('sup')!.owns.push(runId);
  await control(l.kit.s, runId, 'Resume');
  const asked = await untilStanding(l.kit.s, runId, 'Question', 60_000);
  const woken = await ended(l, 1);
  t.deepEqual(woken.filter((e) => e.type === 'WakeNoticed').map((e) => e.data.kind), ['question']);
  const wakeBody = JSON.stringify(l.model.scriptedBodies()[0]);
  t.true(wakeBody.includes(`run ${runId} asked a question`) && wakeBody.includes('What should I say?'), 'the wake and the brief are in its prompt');

  l.model.push(
    callMcp('get_run', { run: runId }, 'Checking the run.'),
    callMcp('answer_question', { run: runId, question: asked.question.id, answer: 'hi', reason: 'the person in the chat asked me to' }),
    say('Answered the question with hi.'),
  );
  l.agents.write('sup', `answer the question on run ${runId} with 'hi'`, 'ann');
  await untilStanding(l.kit.s, runId, 'Succeeded', 150_000);
  const chat = await ended(l, 2);
  const answered = (await history(l.kit.s, runId)).find((e) => e.type === 'QuestionAnswered');
  t.is(answered.data.answer, 'hi');
  t.is(answered.data.why ?? answered.data.reason, 'the person in the chat asked me to', 'the reason is recorded on the run');
  t.true(JSON.stringify(l.model.scriptedBodies()[2]).includes(asked.question.id), 'get_run\'s answer reached the model');
  t.deepEqual(chat.filter((e) => e.type === 'PersonWrote').map((e) => e.data.text), [`answer the question on run ${runId} with 'hi'`]);
  t.true(chat.some((e) => e.type === 'SupervisorReplied' && e.data.text === 'Answered the question with hi.'));
  t.is((await detail(l.kit.s, runId)).standing, 'Succeeded');
});
