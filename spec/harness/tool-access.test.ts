// codex and opencode tool access: read-only refuses the CLI's own file tool, full runs shell
// commands. (claude's mapping is covered in claude-tools.test.ts.)
import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolAccess } from '../../domain/workflow.js';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { runShell, say, writeFile, type ModelTurn } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, opencodeTestEnv, turnInput, writeCodexConfig, writeOpencodeConfig } from './sandbox.js';

const run = async (t: ExecutionContext, harness: 'codex' | 'opencode', tools: ToolAccess, script: (repo: string) => ModelTurn[]) => {
  const sb = makeSandbox();
  const model = await startModelServer(script(sb.repo));
  const rt = await startRunTools();
  t.teardown(async () => (await model.close(), await rt.close(), sb.cleanup()));
  if (harness === 'codex') writeCodexConfig(sb, model.url);
  else writeOpencodeConfig(sb, model.url);
  const adapters = createAdapters({ commands: { [harness]: cliBin(harness) }, env: sb.env });
  const env = harness === 'codex' ? { OPENAI_API_KEY: 'sk-test' } : opencodeTestEnv;
  const { input, rec } = turnInput(sb, { url: rt.url('run-1'), token: rt.token }, { prompt: 'Go', env, tools });
  const result = await adapters[harness].startTurn(input).result;
  return { sb, result, rec };
};

for (const harness of ['codex', 'opencode'] as const) {
  test(`${harness} read-only: its file tool is refused and nothing is written`, async (t) => {
    t.timeout(150_000);
    const { sb, result, rec } = await run(t, harness, 'read-only', (repo) => [writeFile(join(repo, 'nope.txt'), 'x'), say('Could not write.')]);
    t.is(result.outcome, 'success', result.summary + rec.logs.join('\n'));
    t.false(existsSync(join(sb.repo, 'nope.txt')));
  });

  test(`${harness} full: a shell command runs in the worktree`, async (t) => {
    t.timeout(150_000);
    const { sb, result, rec } = await run(t, harness, 'full', () => [runShell('echo shell-ran > shell.txt'), say('Ran it.')]);
    t.is(result.outcome, 'success', result.summary + rec.logs.join('\n'));
    t.is(readFileSync(join(sb.repo, 'shell.txt'), 'utf8'), 'shell-ran\n');
  });
}
