import '../helpers/env.js';
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModelServer } from '../fixtures/model-server/server.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { pointCliAt, REAL, realCliEnv } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// The real opencode CLI: a turn records the tokens the model server served and the cost opencode
// itself computed from its config's model price (Reported; the config prices no cache reads).

test('opencode turns record served tokens and the cost opencode reports', async (t) => {
  t.timeout(300_000);
  const cli = realCliEnv('opencode');
  const reply: ModelTurn = { kind: 'reply', text: 'DONE', usage: { inputTokens: 4_000, outputTokens: 42, cachedInputTokens: 500 } };
  const model = await startModelServer([reply]);
  t.teardown(() => model.close());
  pointCliAt('opencode', cli, model.url);
  // opencode prices the scripted model at $3 input, $15 output per million tokens
  const file = join(cli.env['XDG_CONFIG_HOME']!, 'opencode', 'opencode.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  config.provider.scripted.models['scripted-model'].cost = { input: 3, output: 15 };
  writeFileSync(file, JSON.stringify(config));
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());

  const runId = await startRun(s, { goal: 'One turn.', workflow: 'real', harness: 'opencode' });
  const done = await untilStanding(s, runId, 'Succeeded', 150_000);
  const [turn] = (await history(s, runId)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data);
  // as opencode reports them: over an OpenAI-style provider its input count includes the cached part
  t.deepEqual(turn.tokens, { input: 4_000, cachedInput: 500, output: 42 });
  t.is(turn.cost._tag, 'Reported');
  t.true(Math.abs(turn.cost.usd - (4_000 * 3 + 42 * 15) / 1e6) < 1e-12, `reported ${turn.cost.usd}`);
  t.deepEqual(done.usage.steps.map((st: any) => [st.node, st.harness, st.turns]), [['work', 'opencode', 1]]);
});
