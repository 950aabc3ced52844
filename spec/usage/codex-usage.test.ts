import '../helpers/env.js';
import test from 'ava';
import { startModelServer } from '../fixtures/model-server/server.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { pointCliAt, REAL, realCliEnv } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// The real codex CLI: a turn records the tokens the model server served (codex counts cached tokens
// inside input_tokens; recorded input is the uncached part) and, as codex reports no cost, the
// tokens priced by the Prices setting, by the row of the model codex ran on (read from its session
// file when svc names none) or its '*' row; with no price for its model the cost is Unknown, never 0.

const reply = (text: string, inputTokens: number, cachedInputTokens: number): ModelTurn =>
  ({ kind: 'reply', text, usage: { inputTokens, outputTokens: 42, cachedInputTokens } });

test('codex turns record served tokens; Priced from the Prices setting, Unknown without a price', async (t) => {
  t.timeout(300_000);
  const cli = realCliEnv('codex');
  const model = await startModelServer([reply('PRICED', 10_000, 2_000), reply('UNPRICED', 3_000, 1_000), reply('BY NAME', 5_000, 0)]);
  t.teardown(() => model.close());
  pointCliAt('codex', cli, model.url);
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const prices = [{ harness: 'codex', model: '*', inputPerMTok: 2, cachedInputPerMTok: 1, outputPerMTok: 10 }];
  t.is((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Prices', prices }))).status, 200);

  const priced = await startRun(s, { goal: 'One turn.', workflow: 'real', harness: 'codex' });
  await untilStanding(s, priced, 'Succeeded', 150_000);
  const [turn] = (await history(s, priced)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data);
  t.deepEqual(turn.tokens, { input: 8_000, cachedInput: 2_000, output: 42 });
  t.is(turn.cost._tag, 'Priced');
  t.true(Math.abs(turn.cost.usd - (8_000 * 2 + 2_000 * 1 + 42 * 10) / 1e6) < 1e-12, `priced ${turn.cost.usd}`);

  t.is((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Prices', prices: [] }))).status, 200);
  const unpriced = await startRun(s, { goal: 'One more.', workflow: 'real', harness: 'codex' });
  const done = await untilStanding(s, unpriced, 'Succeeded', 150_000);
  const [other] = (await history(s, unpriced)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data);
  t.deepEqual(other.tokens, { input: 2_000, cachedInput: 1_000, output: 42 });
  // codex chose its model itself (its config names gpt-5.5): the why names it, read from codex's session file
  t.is(other.model, 'gpt-5.5');
  t.deepEqual(other.cost, { _tag: 'Unknown', why: "no price for codex gpt-5.5 (its default model) in the price table, and no '*' row for codex" });
  t.deepEqual(done.usage.total, { costUsd: null, unknownTurns: 1, tokens: { input: 2_000, cachedInput: 1_000, output: 42 } });
  t.deepEqual((await s.get(`/api/runs/${unpriced}`)).body.usage, done.usage, 'GET /api/runs/{id} carries the same usage');

  // a row for the model codex actually ran on prices its turns, with no '*' row (issue 32: only '*' worked)
  const named = [{ harness: 'codex', model: 'gpt-5.5', inputPerMTok: 3, cachedInputPerMTok: 1, outputPerMTok: 20 }];
  t.is((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Prices', prices: named }))).status, 200);
  const byName = await startRun(s, { goal: 'By name.', workflow: 'real', harness: 'codex' });
  await untilStanding(s, byName, 'Succeeded', 150_000);
  const [third] = (await history(s, byName)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data);
  t.is(third.model, 'gpt-5.5');
  t.is(third.cost._tag, 'Priced');
  t.true(Math.abs(third.cost.usd - (5_000 * 3 + 42 * 20) / 1e6) < 1e-12, `priced ${third.cost.usd}`);
});
