// claude tool access: read-only refuses its Write tool, full lets it run shell commands.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, turnInput } from './sandbox.js';

test('claude read-only: the Write tool is refused and nothing is written', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const target = join(sb.repo, 'nope.txt');
  const model = await startModelServer([writeFile(target, 'x'), say('Could not write.')]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Write', env, tools: 'read-only' });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'success', result.summary);
  t.false(existsSync(target));
  t.false(bodiesText(model.scriptedBodies())[0].includes('"name":"Write"'), 'Write is not even offered');
});

test('claude full: a shell command runs in the worktree', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const model = await startModelServer([runShell('echo shell-ran > shell.txt'), say('Ran it.')]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  const { input } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Run', env, tools: 'full' });
  const result = await adapters.claude.startTurn(input).result;
  t.is(result.outcome, 'success', result.summary);
  t.is(readFileSync(join(sb.repo, 'shell.txt'), 'utf8'), 'shell-ran\n');
});
