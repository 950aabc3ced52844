// opencode turn control and availability: watchdog on a silent model, abort, quota, missing binary.
import test, { type ExecutionContext } from 'ava';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { hang, httpError, type ModelTurn } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, opencodeTestEnv, processesIn, turnInput, writeOpencodeConfig } from './sandbox.js';

const setup = async (t: ExecutionContext, script: ModelTurn[]) => {
  const sb = makeSandbox();
  const model = await startModelServer(script);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeOpencodeConfig(sb, model.url);
  const adapters = createAdapters({ commands: { opencode: cliBin('opencode') }, env: sb.env });
  const runTools = { url: tools.url('run-1'), token: tools.token };
  return { sb, model, adapters, runTools };
};

test('opencode watchdog ends a turn whose model never answers', async (t) => {
  t.timeout(180_000);
  const { sb, model, adapters, runTools } = await setup(t, [hang()]);
  // opencode itself prints nothing while it starts: on a loaded machine that alone took over 45 s
  // (measured: 30 s, then 45 s not enough), so the watchdog is set well past its start and the
  // model is still seen to be asked first
  const { input } = turnInput(sb, runTools, { prompt: 'Start', env: opencodeTestEnv, watchdogMs: 90_000 });
  const result = await adapters.opencode.startTurn(input).result;
  t.is(result.outcome, 'failure');
  t.is(result.failure, 'watchdog');
  t.regex(result.summary, /printed nothing for 90s/);
  t.true(model.scriptedBodies().length >= 1);
  t.deepEqual(processesIn(sb.repo), []);
});

test('opencode abort interrupts the turn and kills the process tree', async (t) => {
  t.timeout(180_000);
  const { sb, model, adapters, runTools } = await setup(t, [hang()]);
  // the watchdog is set past opencode's slowest start seen under load (see the watchdog test), and
  // a turn that ends before it asks the model fails here with its summary, not as a test timeout
  const { input, abort } = turnInput(sb, runTools, { prompt: 'Start', env: opencodeTestEnv, watchdogMs: 150_000 });
  const turn = adapters.opencode.startTurn(input);
  const early = await Promise.race([model.waitForScripted(1).then(() => undefined), turn.result]);
  if (early) return t.fail(`the turn ended before opencode asked the model: ${early.outcome} ${early.summary}`);
  t.true(processesIn(sb.repo).length > 0, 'opencode is running in the worktree');
  abort.abort();
  const result = await turn.result;
  t.is(result.outcome, 'interrupted');
  t.deepEqual(processesIn(sb.repo), []);
});

test('opencode: a usage-limit 429 ends the turn with failure quota', async (t) => {
  t.timeout(150_000);
  // retry-after-ms keeps opencode's own backoff (5 retries) short
  const limit = httpError(429, "You've hit your usage limit. Resets at 5pm.", 'rate_limit_error', { 'retry-after-ms': '100' });
  const { sb, adapters, runTools } = await setup(t, Array.from({ length: 30 }, () => limit));
  const { input, rec } = turnInput(sb, runTools, { prompt: 'Start', env: opencodeTestEnv, watchdogMs: 90_000 });
  const result = await adapters.opencode.startTurn(input).result;
  t.is(result.outcome, 'failure', result.summary + rec.logs.join('\n'));
  t.is(result.failure, 'quota', result.summary);
});

test('opencode: a bogus binary is NotInstalled; the real one is Ready with its version', async (t) => {
  t.timeout(120_000); // the version check waits up to 60 s for a loaded machine (lib/harness/common.ts)
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const bogus = createAdapters({ commands: { opencode: '/nonexistent/opencode' }, env: sb.env });
  t.is((await bogus.opencode.check())._tag, 'NotInstalled');
  const { input } = turnInput(sb, { url: 'http://127.0.0.1:9/x', token: 't' }, { prompt: 'Start' });
  t.is((await bogus.opencode.startTurn(input).result).failure, 'unavailable');
  const real = createAdapters({ commands: { opencode: cliBin('opencode') }, env: sb.env });
  t.deepEqual(await real.opencode.check(), { _tag: 'Ready', version: '1.18.33' });
});
