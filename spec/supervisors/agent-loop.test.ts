import '../helpers/env.js';
// Serial: the CLIs read the model server's address from process.env, which the tests share.
import test from 'ava';
import { supervisorStream } from '../../lib/state/supervisor-streams.js';
import { say } from '../fixtures/model-server/script.js';
import { sleep } from '../helpers/env.js';
import { liveKit, pointCodexAtModel, types, type ChatEntry, type LiveKit } from './live-kit.js';

// The live agent's loop in the REAL server, driven over HTTP as a person would: its turns on the
// real claude (or codex) CLI against the scripted model server, its settings, pause and ledger
// part 1's own. Batching, a pause, the daily limit, known and unknown costs. Elsewhere over the
// same server: a question on an owned run answered through /mcp?supervisor= (live-server.test.ts),
// a turn cut off by a crash (live-crash.test.ts).

const of = (c: readonly ChatEntry[], type: string) => c.filter((e) => e.type === type);
const ended = (n: number) => (c: readonly ChatEntry[]) => of(c, 'TurnEnded').length >= n;

const view = async (k: LiveKit) => ((await k.s.get('/api/supervisors')).body as any[]).find((x) => x.id === k.global);

/** the supervisor's ledger: its CostRecorded events */
const ledger = (k: LiveKit) => k.s.service.core.journal.read(supervisorStream(k.global)).filter((e) => e.type === 'CostRecorded').map((e) => e.data as any);

test.serial('one turn at a time: messages written during a turn are batched into the next one', async (t) => {
  t.timeout(400_000);
  let release!: () => void;
  const gate = new Promise((r) => (release = () => r(undefined)));
  const k = await liveKit(t, [{ kind: 'reply', text: 'First answer.', gate }, say('Both seen.')]);
  t.is((await k.write(k.global, 'FIRST message', 'ann')).status, 200);
  await k.model.waitForScripted(1);
  for (const [text, sender] of [['SECOND message', 'ann'], ['THIRD message', undefined]] as const) {
    const w = await k.write(k.global, text, sender);
    t.like(w, { status: 200, body: { heldBecause: null } });
  }
  release();
  const chat = await k.until(k.global, ended(2));
  t.is(of(chat, 'TurnStarted').length, 2, 'two turns for three messages');
  const bodies = k.model.scriptedBodies().map((b) => JSON.stringify(b));
  t.is(bodies.length, 2);
  t.true(bodies[0]!.includes('FIRST message') && !bodies[0]!.includes('SECOND message'));
  t.true(bodies[1]!.includes('SECOND message') && bodies[1]!.includes('THIRD message'), 'the second turn holds both');
  t.deepEqual(of(chat, 'SupervisorReplied').map((e) => e.data.text), ['First answer.', 'Both seen.']);
  const [first, second] = of(chat, 'TurnEnded');
  t.truthy(first!.data.sessionId);
  t.is(of(chat, 'TurnStarted')[1]!.data.resumeSession, first!.data.sessionId, 'the second turn resumes the first one\'s session');
  const costs = of(chat, 'TurnEnded').map((e) => e.data.cost);
  t.true(costs.every((c) => c._tag === 'Reported' && c.usd > 0), `claude's cost is known: ${JSON.stringify(costs)}`);
  t.deepEqual(ledger(k).map((c) => [c.turnId, c.cost]), [[first!.data.turnId, costs[0]], [second!.data.turnId, costs[1]]], 'each turn\'s cost went to the ledger');
  t.true(ledger(k).every((c) => c.harness === 'claude' && c.tokens.input > 0 && c.tokens.output > 0), `the ledger has each turn's tokens: ${JSON.stringify(ledger(k))}`);
  const spent = (await view(k)).spentTodayUsd as number;
  t.true(Math.abs(spent - (costs[0].usd + costs[1].usd)) < 1e-9, `today's spending is the two turns': ${spent}`);
});

test.serial('no wake while paused: the chat says why, and the wake runs once the pause ends', async (t) => {
  t.timeout(400_000);
  const k = await liveKit(t, [say('Back again.')]);
  const paused = await k.patch(k.global, { paused: true });
  t.is(paused.status, 200, JSON.stringify(paused.body));
  t.truthy(paused.body.pausedUntil, 'paused for the day');
  const written = await k.write(k.global, 'are you there?');
  t.regex(written.body.heldBecause, /is paused for the day \(until /);
  const held = await k.until(k.global, (c) => c.some((e) => e.type === 'WakesHeld'), 20_000);
  t.is(of(held, 'WakesHeld')[0]!.data.reason, written.body.heldBecause, 'the chat says why');
  t.is((await k.write(k.global, 'still there?')).body.heldBecause, written.body.heldBecause);
  await sleep(500); // a window for a turn that must not start
  const still = await k.chat(k.global);
  t.false(types(still).includes('TurnStarted'), 'no turn while paused');
  t.is(of(still, 'WakesHeld').length, 1, 'the reason is said once');
  t.is(k.model.scriptedBodies().length, 0);

  const unpaused = await k.patch(k.global, { paused: false });
  t.like(unpaused, { status: 200, body: { pausedUntil: null, heldBecause: null } });
  const chat = await k.until(k.global, ended(1));
  t.is(of(chat, 'TurnEnded')[0]!.data.outcome, 'success');
  const body = JSON.stringify(k.model.scriptedBodies()[0]);
  t.true(body.includes('are you there?') && body.includes('still there?'), 'the held wakes are given to the turn');
});

test.serial('the daily limit: a turn that reaches it stops further turns, and the chat says so', async (t) => {
  t.timeout(400_000);
  const k = await liveKit(t, [say('Spent.'), say('never')]);
  t.like(await k.patch(k.global, { dailyLimitUsd: 0.000001 }), { status: 200, body: { dailyLimitUsd: 0.000001, heldBecause: null } });
  t.is((await k.write(k.global, 'do something')).body.heldBecause, null, 'under the limit: it will answer');
  const chat = await k.until(k.global, (c) => c.some((e) => e.type === 'WakesHeld'));
  const cost = of(chat, 'TurnEnded')[0]!.data.cost;
  t.true(cost._tag === 'Reported' && cost.usd >= 0.000001, JSON.stringify(cost));
  t.regex(of(chat, 'WakesHeld')[0]!.data.reason, /has reached today's spending limit/);
  t.like(await view(k), { spentTodayUsd: cost.usd });
  t.regex((await k.write(k.global, 'and again')).body.heldBecause, /spending limit/);
  await sleep(500); // a window for a turn that must not start
  const after = await k.chat(k.global);
  t.is(of(after, 'TurnStarted').length, 1, 'no second turn today');
  t.is(of(after, 'WakesHeld').length, 1, 'the reason is said once');
  t.is(k.model.scriptedBodies().length, 1);
});

test.serial('unknown cost: a codex turn on a model the price table lacks is recorded as unknown, not zero', async (t) => {
  t.timeout(400_000);
  const k = await liveKit(t, [say('From codex.')]);
  pointCodexAtModel(k.model.url);
  t.like(await k.patch(k.global, { harness: 'codex' }), { status: 200, body: { harness: 'codex' } });
  t.is((await k.write(k.global, 'hello codex')).status, 200);
  const chat = await k.until(k.global, ended(1));
  t.is(of(chat, 'TurnStarted')[0]!.data.harness, 'codex');
  const end = of(chat, 'TurnEnded')[0]!;
  t.is(end.data.outcome, 'success', end.data.summary);
  t.deepEqual(of(chat, 'SupervisorReplied').map((e) => e.data.text), ['From codex.']);
  // priced by the model codex ran on (read from its session), which the table lacks
  const unknown = { _tag: 'Unknown', why: 'no price for codex gpt-5.5 (its default model) in the price table, and no \'*\' row for codex' };
  t.deepEqual(end.data.cost, unknown);
  t.deepEqual(ledger(k).map((c) => [c.turnId, c.cost]), [[end.data.turnId, unknown]], 'the ledger records it as unknown');
  t.is((await view(k)).spentTodayUsd, 0, 'and counts nothing for it');
});
