// codex turn control and availability: watchdog on a silent model, abort, quota, missing binary.
import test, { type ExecutionContext } from 'ava';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { hang, httpError, type ModelTurn } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, processesIn, turnInput, writeCodexConfig } from './sandbox.js';

const setup = async (t: ExecutionContext, script: ModelTurn[]) => {
  const sb = makeSandbox();
  const model = await startModelServer(script);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeCodexConfig(sb, model.url);
  const adapters = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  const runTools = { url: tools.url('run-1'), token: tools.token };
  return { sb, model, adapters, runTools, env: { OPENAI_API_KEY: 'sk-test' } };
};

test('codex watchdog ends a turn whose model never answers', async (t) => {
  t.timeout(120_000);
  const { sb, model, adapters, runTools, env } = await setup(t, [hang()]);
  const { input } = turnInput(sb, runTools, { prompt: 'Start', env, watchdogMs: 8000 });
  const result = await adapters.codex.startTurn(input).result;
  t.is(result.outcome, 'failure');
  t.is(result.failure, 'watchdog');
  t.regex(result.summary, /printed nothing for 8s/);
  t.true(model.scriptedBodies().length >= 1);
  t.truthy(result.sessionId, 'the thread id was seen before the silence');
  t.deepEqual(processesIn(sb.repo), []);
});

test('codex abort interrupts the turn and kills the process tree', async (t) => {
  t.timeout(120_000);
  const { sb, model, adapters, runTools, env } = await setup(t, [hang()]);
  const { input, abort } = turnInput(sb, runTools, { prompt: 'Start', env });
  const turn = adapters.codex.startTurn(input);
  await model.waitForScripted(1);
  t.true(processesIn(sb.repo).length > 0, 'codex is running in the worktree');
  abort.abort();
  const result = await turn.result;
  t.is(result.outcome, 'interrupted');
  t.deepEqual(processesIn(sb.repo), []);
});

test('codex: an insufficient_quota 429 ends the turn with failure quota', async (t) => {
  t.timeout(150_000);
  const quota = httpError(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota');
  const { sb, adapters, runTools, env } = await setup(t, Array.from({ length: 10 }, () => quota));
  const { input } = turnInput(sb, runTools, { prompt: 'Start', env });
  const result = await adapters.codex.startTurn(input).result;
  t.is(result.outcome, 'failure', result.summary);
  t.is(result.failure, 'quota', result.summary);
});

test('codex: a bogus binary is NotInstalled; check() reads `codex login status`', async (t) => {
  t.timeout(60_000);
  const sb = makeSandbox();
  t.teardown(() => sb.cleanup());
  const bogus = createAdapters({ commands: { codex: '/nonexistent/codex' }, env: sb.env });
  t.is((await bogus.codex.check())._tag, 'NotInstalled');
  const { input } = turnInput(sb, { url: 'http://127.0.0.1:9/x', token: 't' }, { prompt: 'Start' });
  const failed = await bogus.codex.startTurn(input).result;
  t.is(failed.failure, 'unavailable');
  const real = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  t.is((await real.codex.check())._tag, 'NotLoggedIn');
  const keyed = createAdapters({ commands: { codex: cliBin('codex') }, env: { ...sb.env, OPENAI_API_KEY: 'sk-test' } });
  t.deepEqual(await keyed.codex.check(), { _tag: 'Ready', version: 'codex-cli 0.169.0' });
});
