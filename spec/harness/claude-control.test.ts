// claude turn control: a message sent mid-turn reaches the model in the same turn; a silent
// model trips the watchdog; abort interrupts and leaves no process behind.
import test from 'ava';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { hang, say } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, processesIn, turnInput } from './sandbox.js';

const setup = async (t: import('ava').ExecutionContext, script: Parameters<typeof startModelServer>[0]) => {
  const sb = makeSandbox();
  const model = await startModelServer(script);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  return { sb, model, tools, adapters, env };
};

test('claude send() mid-turn arrives as a user message in the same turn', async (t) => {
  t.timeout(120_000);
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const { sb, model, tools, adapters, env } = await setup(t, [{ kind: 'reply', text: 'Working on it.', gate }, say('Took the steer into account.')]);
  const { input, rec } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Start', env });
  const turn = adapters.claude.startTurn(input);
  await model.waitForScripted(1);
  t.true(turn.send('STEER-MESSAGE: use tabs'));
  await new Promise((r) => setTimeout(r, 500));
  release();
  const result = await turn.result;
  t.is(result.outcome, 'success', result.summary);
  const bodies = bodiesText(model.scriptedBodies());
  t.false(bodies[0].includes('STEER-MESSAGE'));
  t.true(bodies.slice(1).some((b) => b.includes('STEER-MESSAGE: use tabs')), 'the model saw the message');
  t.true(rec.messages.includes('Took the steer into account.'));
  t.false(turn.send('too late'), 'no sending once the turn is over');
});

test('claude watchdog ends a turn whose model never answers', async (t) => {
  t.timeout(120_000);
  const { sb, model, tools, adapters, env } = await setup(t, [hang()]);
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Start', env, watchdogMs: 8000 });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'failure');
  t.is(result.failure, 'watchdog');
  t.regex(result.summary, /printed nothing for 8s/);
  t.true(model.scriptedBodies().length >= 1, 'the model was asked');
  t.deepEqual(processesIn(sb.repo), []);
});

test('claude abort interrupts the turn and kills the process', async (t) => {
  t.timeout(120_000);
  const { sb, model, tools, adapters, env } = await setup(t, [hang()]);
  const { input, abort } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Start', env });
  const turn = adapters.claude.startTurn(input);
  await model.waitForScripted(1);
  t.true(processesIn(sb.repo).length > 0, 'claude is running in the worktree');
  abort.abort();
  const result = await turn.result;
  t.is(result.outcome, 'interrupted');
  t.truthy(result.sessionId);
  t.deepEqual(processesIn(sb.repo), []);
});
