// A turn's own cost when a session is resumed. claude's total_cost_usd and codex's turn.completed
// usage are the session's running totals; the adapter is given the totals it reported at the end
// of the session's last recorded turn and reports only the difference. Each turn here is a fresh
// CLI process resuming the session, as after a server restart.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from '../../lib/harness/registry.js';
import type { TurnResult } from '../../lib/harness/adapter.js';
import type { SessionTotals } from '../../domain/harness.js';
import { ownCost, ownUsage } from '../../lib/harness/session-totals.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { sayCostly } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { freshClaudeCost, near } from './claude-price.js';
import { cliBin, makeSandbox, opencodeTestEnv, turnInput, writeCodexConfig, writeOpencodeConfig, type Sandbox } from './sandbox.js';

const TOKENS = [100_000, 300_000, 50_000];

test('own share: the difference from the totals before, or all of it when the CLI counted afresh', (t) => {
  t.is(ownCost(1.5, undefined), 1.5);
  t.true(near(ownCost(1.5, 0.4), 1.1));
  t.is(ownCost(0.3, 0.4), 0.3, 'a total below the last one: the CLI started counting again');
  t.deepEqual(ownUsage({ input_tokens: 30, output_tokens: 9 }, { input_tokens: 10, output_tokens: 4 }), { input_tokens: 20, output_tokens: 5 });
  t.deepEqual(ownUsage({ input_tokens: 30, output_tokens: 9 }, undefined), { input_tokens: 30, output_tokens: 9 });
  t.deepEqual(ownUsage({ input_tokens: 5, output_tokens: 9 }, { input_tokens: 10 }), { input_tokens: 5, output_tokens: 9 });
});

type Cli = 'claude' | 'codex' | 'opencode';

// opencode prices a model from its config: $3 input, $15 output per million tokens
const pricedOpencode = (sb: Sandbox, url: string): void => {
  writeOpencodeConfig(sb, url);
  const file = join(sb.env.XDG_CONFIG_HOME!, 'opencode', 'opencode.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  config.provider.scripted.models['scripted-model'].cost = { input: 3, output: 15 };
  writeFileSync(file, JSON.stringify(config));
};

const ENV: Record<Cli, (url: string) => Record<string, string>> = {
  claude: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-test' }),
  codex: () => ({ OPENAI_API_KEY: 'sk-test' }),
  opencode: () => opencodeTestEnv,
};

/** Turns of one session, each a new process resuming it with the totals the last one reported. */
const sessionTurns = async (cli: Cli, tokens: readonly number[]): Promise<TurnResult[]> => {
  const sb = makeSandbox();
  const model = await startModelServer(tokens.map((n, i) => sayCostly(`turn ${i + 1}`, n)));
  const tools = await startRunTools();
  try {
    if (cli === 'codex') writeCodexConfig(sb, model.url);
    if (cli === 'opencode') pricedOpencode(sb, model.url);
    const env = ENV[cli](model.url);
    const adapter = createAdapters({ commands: { [cli]: cliBin(cli) }, env: sb.env })[cli];
    const results: TurnResult[] = [];
    let last: { session?: string; totals?: SessionTotals } = {};
    for (const [i] of tokens.entries()) {
      const over = last.session ? { resumeSession: last.session, ...(last.totals ? { sessionTotals: last.totals } : {}) } : {};
      const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: `PROMPT-${i + 1}`, env, ...over });
      const r = await adapter.startTurn(input).result;
      if (r.outcome !== 'success') throw new Error(`${cli} turn ${i + 1}: ${r.summary}`);
      results.push(r);
      last = { session: r.sessionId, totals: r.sessionTotals ?? last.totals };
    }
    return results;
  } finally {
    await model.close();
    await tools.close();
    sb.cleanup();
  }
};

test('claude: each resumed turn costs what the same requests cost on a fresh session; the sum is the session total', async (t) => {
  t.timeout(240_000);
  const resumed = await sessionTurns('claude', TOKENS);
  const fresh = await Promise.all(TOKENS.map(freshClaudeCost));
  for (const [i, r] of resumed.entries()) {
    t.true(near(r.costUsd, fresh[i]), `turn ${i + 1}: recorded ${r.costUsd}, its requests cost ${fresh[i]}`);
    t.is(r.usage?.input_tokens, TOKENS[i], 'usage is the turn\'s own');
  }
  const sum = resumed.reduce((a, r) => a + (r.costUsd ?? 0), 0);
  t.true(near(sum, resumed.at(-1)!.sessionTotals!.costUsd!), `the turns sum to claude's own session total: ${sum}`);
  t.true(resumed.at(-1)!.sessionTotals!.costUsd! > resumed[0].sessionTotals!.costUsd!, 'claude reports a running total');
});

test('codex: each resumed turn reports only its own tokens; they sum to the thread total', async (t) => {
  t.timeout(240_000);
  // small counts: a thread near its context window makes codex compact it (an extra request)
  const tokens = [10_000, 30_000, 5_000];
  const resumed = await sessionTurns('codex', tokens);
  t.deepEqual(resumed.map((r) => r.usage?.input_tokens), tokens);
  t.deepEqual(resumed.map((r) => r.usage?.output_tokens), [42, 42, 42]);
  t.deepEqual(resumed.map((r) => r.sessionTotals?.usage?.input_tokens), [10_000, 40_000, 45_000], 'codex reports the thread\'s running total');
});

test('opencode: step_finish counts this process only, also with -s: each turn\'s cost and tokens are its own', async (t) => {
  t.timeout(240_000);
  const tokens = [1_000, 3_000, 2_000];
  const resumed = await sessionTurns('opencode', tokens);
  t.is(new Set(resumed.map((r) => r.sessionId)).size, 1, 'one session');
  t.deepEqual(resumed.map((r) => r.usage?.input_tokens), tokens);
  for (const [i, r] of resumed.entries()) t.true(near(r.costUsd, (tokens[i]! * 3 + 42 * 15) / 1e6), `turn ${i + 1}: ${r.costUsd}`);
  t.deepEqual(resumed.map((r) => r.sessionTotals), [undefined, undefined, undefined], 'nothing to subtract');
});
