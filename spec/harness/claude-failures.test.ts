// claude availability: quota from the API's 429, a missing binary, and check().
import test from 'ava';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { httpError } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, turnInput } from './sandbox.js';

test('claude: a usage-limit 429 ends the turn with failure quota', async (t) => {
  t.timeout(150_000);
  const sb = makeSandbox();
  // what Anthropic sends a subscriber out of quota: claude gives up at once instead of retrying
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  const limit = httpError(429, "You've hit your usage limit.", 'rate_limit_error', {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': reset,
    'retry-after': '3600',
  });
  const model = await startModelServer(Array.from({ length: 20 }, () => limit));
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Start', env });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'failure', result.summary);
  t.is(result.failure, 'quota', result.summary);
  t.regex(result.summary, /usage limit/);
});

test('claude: a bogus binary is NotInstalled and a turn fails as unavailable', async (t) => {
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const adapters = createAdapters({ commands: { claude: '/nonexistent/claude-bin' }, env: sb.env });
  const avail = await adapters.claude.check();
  t.is(avail._tag, 'NotInstalled');
  const { input } = turnInput(sb, { url: 'http://127.0.0.1:9/x', token: 't' }, { prompt: 'Start' });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'failure');
  t.is(result.failure, 'unavailable');
});

test('claude: check() reads the CLI: NotLoggedIn without a key, Ready with one', async (t) => {
  t.timeout(60_000);
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const bare = await createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env }).claude.check();
  t.is(bare._tag, 'NotLoggedIn');
  const keyed = await createAdapters({ commands: { claude: cliBin('claude') }, env: { ...sb.env, ANTHROPIC_API_KEY: 'sk-test' } }).claude.check();
  t.deepEqual(keyed, { _tag: 'Ready', version: '2.1.329 (Claude Code)' });
});

test('SVC_HARNESS_BIN_CLAUDE overrides the configured binary', async (t) => {
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: { ...sb.env, SVC_HARNESS_BIN_CLAUDE: '/nonexistent/other' } });
  t.is((await adapters.claude.check())._tag, 'NotInstalled');
});
