import '../helpers/env.js';
import test from 'ava';
import { writeCodexConfig } from '../harness/sandbox.js';
import { realCliEnv, realRun } from '../helpers/real-run.js';

test('a run on the real codex CLI: file, question, outcome, log and thread', async (t) => {
  t.timeout(200_000);
  const cli = realCliEnv('codex');
  process.env['OPENAI_API_KEY'] = 'sk-test';
  await realRun(t, 'codex', (url) => writeCodexConfig({ root: cli.root, repo: '', env: cli.env, cleanup: () => undefined }, url));
});
