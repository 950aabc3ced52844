import '../helpers/env.js';
import test from 'ava';
import { realCliEnv, realRun } from '../helpers/real-run.js';

test('a run on the real claude CLI: file, question, outcome, log and thread', async (t) => {
  t.timeout(200_000);
  realCliEnv('claude');
  await realRun(t, 'claude', (url) => Object.assign(process.env, { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-test' }));
});
