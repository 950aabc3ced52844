import '../helpers/env.js';
import test from 'ava';
import { escapeRun } from '../helpers/sandbox-escape.js';

test('a sandboxed opencode run cannot read ~/.ssh or the MCP token, write another run\'s folder or the user\'s git hooks, or reach a loopback server off the allowlist; its own work succeeds', async (t) => {
  t.timeout(240_000);
  await escapeRun(t, 'opencode');
});
