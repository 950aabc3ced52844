import '../helpers/env.js';
import test from 'ava';
import { opencodeTestEnv, writeOpencodeConfig } from '../harness/sandbox.js';
import { realCliEnv, realRun } from '../helpers/real-run.js';

test('a run on the real opencode CLI: file, question, outcome, log and thread', async (t) => {
  t.timeout(200_000);
  const cli = realCliEnv('opencode');
  Object.assign(process.env, opencodeTestEnv);
  await realRun(t, 'opencode', (url) => writeOpencodeConfig({ root: cli.root, repo: '', env: cli.env, cleanup: () => undefined }, url));
});
