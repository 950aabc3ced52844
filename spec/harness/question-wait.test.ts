// A question that waits longer than the watchdog is not a hang: claude and codex hold the
// watchdog by themselves while their in-run MCP call is open; for opencode the engine holds it (holdWatchdog)
// while the backend has the question.
import test from 'ava';
import type { Turn } from '../../lib/harness/adapter.js';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, hang, say } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, opencodeTestEnv, turnInput, writeCodexConfig, writeOpencodeConfig } from './sandbox.js';

const later = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms));
// the answer comes after the watchdog would have fired; the watchdog itself must outlast the CLI's
// start on a loaded machine (6 s did not, nor did 10 s on CI's busy lanes: claude was cut off)
const WATCHDOG_MS = 20_000;
const SLOW_ANSWER_MS = WATCHDOG_MS + 5_000;

test('codex: a slow answer outlasting the watchdog still reaches the model', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const model = await startModelServer([callMcp('ask_question', { prompt: 'Wait?' }), say('Got it.')]);
  const tools = await startRunTools(() => later(SLOW_ANSWER_MS, { answer: 'SLOW-ANSWER' }));
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeCodexConfig(sb, model.url);
  const adapters = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'go', env: { OPENAI_API_KEY: 'sk-test' }, watchdogMs: WATCHDOG_MS });
  const result = await adapters.codex.startTurn(input).result;
  t.is(result.outcome, 'success', `${result.summary} (the model was asked ${model.requests.length} time(s))`);
  t.true(bodiesText(model.scriptedBodies()).some((b) => b.includes('SLOW-ANSWER')));
});

test('claude: a slow answer outlasting the watchdog still reaches the model', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const model = await startModelServer([callMcp('ask_question', { prompt: 'Wait?' }), say('Got it.')]);
  const tools = await startRunTools(() => later(SLOW_ANSWER_MS, { answer: 'SLOW-ANSWER' }));
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'go', env, watchdogMs: WATCHDOG_MS });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'success', `${result.summary} (the model was asked ${model.requests.length} time(s))`);
  t.true(bodiesText(model.scriptedBodies()).some((b) => b.includes('SLOW-ANSWER')));
});

test('opencode: holdWatchdog while the backend has the question', async (t) => {
  t.timeout(180_000);
  const sb = makeSandbox();
  const model = await startModelServer([callMcp('ask_question', { prompt: 'Wait?' }), say('Got it.')]);
  let turn: Turn | undefined;
  const tools = await startRunTools(async () => {
    turn?.holdWatchdog?.(true); // what the engine does when a run enters Question
    const answer = await later(50_000, { answer: 'SLOW-ANSWER' });
    turn?.holdWatchdog?.(false);
    return answer;
  });
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeOpencodeConfig(sb, model.url);
  const adapters = createAdapters({ commands: { opencode: cliBin('opencode') }, env: sb.env });
  // the watchdog runs until the question reaches the backend: on a loaded machine opencode took more
  // than 30 s to start and ask, so it has 45 s; the answer still comes after it, held
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'go', env: opencodeTestEnv, watchdogMs: 45_000 });
  turn = adapters.opencode.startTurn(input);
  const result = await turn.result;
  t.is(result.outcome, 'success', result.summary);
  t.true(bodiesText(model.scriptedBodies()).some((b) => b.includes('SLOW-ANSWER')));
});

test('a released hold re-arms the watchdog', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const model = await startModelServer([hang()]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeCodexConfig(sb, model.url);
  const adapters = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'go', env: { OPENAI_API_KEY: 'sk-test' }, watchdogMs: 3000 });
  const turn = adapters.codex.startTurn(input);
  turn.holdWatchdog?.(true);
  await model.waitForScripted(1);
  await later(5000, undefined);
  turn.holdWatchdog?.(false);
  const started = Date.now();
  const result = await turn.result;
  t.is(result.failure, 'watchdog');
  t.true(Date.now() - started >= 2500, 'held past the 3s limit, then fired a full period after release');
});

// claude stops an MCP call that sent "no response or progress" for its idle limit (300 s by
// default; CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT, checked every 30 s). Shortened to 5 s here, so both
// sides of the rule show within a minute: the run-tools server's progress notifications keep
// the question's call open past it, and without them claude gives up at its first check.
const claudeWaits = async (t: import('ava').ExecutionContext, progressEveryMs: number) => {
  const sb = makeSandbox();
  const model = await startModelServer([callMcp('ask_question', { prompt: 'Wait?' }), say('Got it.')]);
  const tools = await startRunTools(() => later(45_000, { answer: 'SLOW-ANSWER' }), { progressEveryMs });
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test', CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT: '5000' };
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'go', env, watchdogMs: 120_000 });
  const result = await adapters.claude.startTurn(input).result;
  return { result, bodies: bodiesText(model.scriptedBodies()) };
};

test('claude: progress notifications keep a waiting question open past its no-progress limit', async (t) => {
  t.timeout(240_000);
  const { result, bodies } = await claudeWaits(t, 1000);
  t.is(result.outcome, 'success', result.summary);
  t.true(bodies.some((b) => b.includes('SLOW-ANSWER')), 'the answer given after the limit reached the model');
  t.false(bodies.some((b) => b.includes('sent no response or progress')));
});

test('claude: without progress notifications the same wait is cut off at the limit', async (t) => {
  t.timeout(240_000);
  const { bodies } = await claudeWaits(t, 10 * 60_000);
  t.false(bodies.some((b) => b.includes('SLOW-ANSWER')));
  t.true(bodies.some((b) => b.includes('sent no response or progress')), 'claude told the model it stopped waiting');
});
