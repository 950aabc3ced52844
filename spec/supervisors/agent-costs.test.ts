import '../helpers/env.js';
import test from 'ava';
import { sayCostly } from '../fixtures/model-server/script.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { EMPTY_TURNS, evolveTurns, type TurnsState } from '../../projections/supervisor-turns.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { freshClaudeCost, near } from '../harness/claude-price.js';
import { chatOver, pointCodexAtModel, pointSupervisorsAtModel, type ChatEntry } from './live-kit.js';

// A supervisor resumes its claude session turn after turn, and claude reports the session's
// running total. The ledger must get each turn's own cost, also for a turn after a server
// restart: three turns on the real CLI against the scripted model, the server restarted before the
// third. claude's recorded cost is compared with the same answer priced on a fresh session; codex
// reports its thread's running token totals, priced here by a price-table row set for the test.

const TOKENS = [100_000, 300_000, 50_000];
const JSON_TYPE = { 'content-type': 'application/json' };

const serve = async (home?: string): Promise<TestServer> => {
  const s = await testServer(home ? { home } : {});
  const on = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  if (on.status !== 200) throw new Error(JSON.stringify(on.body));
  return s;
};

const globalOf = async (s: TestServer): Promise<string> =>
  ((await s.get('/api/supervisors')).body as { id: string; project: string | null }[]).find((x) => x.project === null)!.id;

const turnsEnded = (c: readonly ChatEntry[]): ChatEntry[] => c.filter((e) => e.type === 'TurnEnded');

const say = async (s: TestServer, id: string, text: string, ended: number): Promise<ChatEntry[]> => {
  const w = await s.post(`/api/supervisors/${id}/chat`, { text });
  if (w.status !== 200) throw new Error(JSON.stringify(w.body));
  return eventually(() => chatOver(s.get)(id), (c) => turnsEnded(c).length >= ended, 150_000);
};

interface Turns {
  readonly chat: ChatEntry[];
  readonly spent: number;
}

/** three turns of the global supervisor, the server restarted before the third */
const threeTurns = async (t: import('ava').ExecutionContext, tokens: readonly number[], setup: (s: TestServer, id: string, modelUrl: string) => Promise<void>): Promise<Turns> => {
  const model = await startModelServer(tokens.map((n, i) => sayCostly(`reply ${i + 1}`, n)));
  pointSupervisorsAtModel(model.url);
  let s = await serve();
  t.teardown(async () => (await s.close(), await model.close()));
  const id = await globalOf(s);
  await setup(s, id, model.url);
  await say(s, id, 'first', 1);
  await say(s, id, 'second', 2);
  await s.close();
  s = await serve(s.home);
  const chat = await say(s, id, 'third, after a restart', 3);
  const starts = chat.filter((e) => e.type === 'TurnStarted');
  t.falsy(starts[0]!.data.resumeSession);
  t.truthy(starts[1]!.data.resumeSession);
  t.is(starts[2]!.data.resumeSession, starts[1]!.data.resumeSession, 'the restarted server resumed the same session');
  for (const e of turnsEnded(chat)) t.is(e.data.outcome, 'success', e.data.summary);
  return { chat, spent: (await s.get(`/api/supervisors/${id}`)).body.spentTodayUsd };
};

const ownCosts = (t: import('ava').ExecutionContext, r: Turns, expected: readonly number[]): void => {
  for (const [i, e] of turnsEnded(r.chat).entries()) {
    t.true(e.data.cost._tag !== 'Unknown' && near(e.data.cost.usd, expected[i]!), `turn ${i + 1}: recorded ${JSON.stringify(e.data.cost)}, its requests cost ${expected[i]}`);
  }
  const sum = expected.reduce((a, b) => a + b, 0);
  t.true(Math.abs(r.spent - sum) < 1e-6, `the ledger: ${r.spent}, the requests: ${sum}`);
};

test.serial('claude: each resumed supervisor turn records its own cost, after a restart too; the ledger sums to the session total', async (t) => {
  t.timeout(600_000);
  const r = await threeTurns(t, TOKENS, async () => undefined);
  const expected = await Promise.all(TOKENS.map(freshClaudeCost));
  ownCosts(t, r, expected);
  const last = turnsEnded(r.chat)[2]!.data.sessionTotals?.costUsd;
  t.true(near(last, expected.reduce((a, b) => a + b, 0)), `claude's session total ${last} is the sum of the turns' own costs`);
});

test.serial('codex: each resumed supervisor turn is priced on its own tokens, after a restart too', async (t) => {
  t.timeout(600_000);
  const tokens = [10_000, 30_000, 5_000]; // small: a thread near its context window makes codex compact it
  const row = { harness: 'codex', model: '*', inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 10 };
  const r = await threeTurns(t, tokens, async (s, id, url) => {
    pointCodexAtModel(url);
    if ((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'SupervisorPrices', prices: [row] }), JSON_TYPE)).status !== 200) throw new Error('prices');
    if ((await s.send('PATCH', `/api/supervisors/${id}`, JSON.stringify({ harness: 'codex' }), JSON_TYPE)).status !== 200) throw new Error('harness');
  });
  // the scripted Responses API reports 20 of the input tokens as cached, and 42 output tokens
  ownCosts(t, r, tokens.map((n) => ((n - 20) * 2 + 20 * 0.5 + 42 * 10) / 1e6));
});

test('the session to resume keeps the last totals claude reported when a turn on it reported none', (t) => {
  const fold = evolveTurns(() => false);
  const ended = (seq: number, data: object) => ({ seq, type: 'TurnEnded', data: { turnId: `t${seq}`, harness: 'claude', outcome: 'success', summary: '', cost: { _tag: 'Unknown', why: '' }, ...data } });
  const after = (events: ReturnType<typeof ended>[]): TurnsState['session'] => events.reduce(fold, EMPTY_TURNS).session;
  t.deepEqual(after([ended(1, { sessionId: 'a', sessionTotals: { costUsd: 0.4 } })]), { harness: 'claude', id: 'a', totals: { costUsd: 0.4 } });
  t.deepEqual(after([ended(1, { sessionId: 'a', sessionTotals: { costUsd: 0.4 } }), ended(2, { sessionId: 'a', outcome: 'failure' })]), { harness: 'claude', id: 'a', totals: { costUsd: 0.4 } }, 'a failed turn without a result line');
  t.deepEqual(after([ended(1, { sessionId: 'a', sessionTotals: { costUsd: 0.4 } }), ended(2, { sessionId: 'b' })]), { harness: 'claude', id: 'b' }, 'another session starts from nothing');
  t.deepEqual(after([ended(1, { sessionId: 'a' })]), { harness: 'claude', id: 'a' }, 'a journal from before totals were recorded');
});
