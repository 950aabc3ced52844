import '../helpers/env.js';
import test from 'ava';
import { sayCostly } from '../fixtures/model-server/script.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { EMPTY_TURNS, evolveTurns, type TurnsState } from '../../projections/supervisor-turns.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { freshClaudeCost, near } from '../harness/claude-price.js';
import { chatOver, pointSupervisorsAtModel, type ChatEntry } from './live-kit.js';

// A supervisor resumes its claude session turn after turn, and claude reports the session's
// running total. The ledger must get each turn's own cost, also for a turn after a server
// restart: three turns on real claude against the scripted model, the server restarted before
// the third, each turn's recorded cost compared with the same answer priced on a fresh session.

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

test.serial('each resumed supervisor turn records its own cost, after a restart too; the ledger sums to the session total', async (t) => {
  t.timeout(600_000);
  const model = await startModelServer(TOKENS.map((n, i) => sayCostly(`reply ${i + 1}`, n)));
  pointSupervisorsAtModel(model.url);
  let s = await serve();
  t.teardown(async () => (await s.close(), await model.close()));
  const id = await globalOf(s);
  await say(s, id, 'first', 1);
  await say(s, id, 'second', 2);
  await s.close();
  s = await serve(s.home);
  const chat = await say(s, id, 'third, after a restart', 3);

  const starts = chat.filter((e) => e.type === 'TurnStarted');
  t.falsy(starts[0].data.resumeSession);
  t.truthy(starts[1].data.resumeSession);
  t.is(starts[2].data.resumeSession, starts[1].data.resumeSession, 'the restarted server resumed the same session');
  const expected = await Promise.all(TOKENS.map(freshClaudeCost));
  const ends = turnsEnded(chat);
  for (const [i, e] of ends.entries()) {
    t.is(e.data.outcome, 'success', e.data.summary);
    t.true(e.data.cost._tag === 'Known' && near(e.data.cost.usd, expected[i]), `turn ${i + 1}: recorded ${JSON.stringify(e.data.cost)}, its requests cost ${expected[i]}`);
  }
  const sum = expected.reduce((a, b) => a + b, 0);
  t.true(near(ends[2].data.sessionTotals?.costUsd, sum), `claude's session total ${ends[2].data.sessionTotals?.costUsd} is the sum of the turns' own costs ${sum}`);
  const view = (await s.get(`/api/supervisors/${id}`)).body;
  t.true(Math.abs(view.spentTodayUsd - sum) < 1e-6, `the ledger: ${view.spentTodayUsd}, the requests: ${sum}`);
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
