import test from 'ava';
import { opencodePermission } from '../../lib/harness/opencode-args.js';
import { opencodeTurnResult } from '../../lib/harness/opencode-events.js';

// Found by running opencode through the engine: it takes a git worktree's project to be the main
// checkout, so the run's worktree is an "external directory" that a headless run auto-rejects.

test('opencode may touch the run\'s worktree at every access level, and nothing else outside it below full', (t) => {
  for (const tools of ['read-only', 'edit'] as const) {
    t.deepEqual(opencodePermission(tools, '/w/r1/app')['external_directory'], { '*': 'deny', '/w/r1/app': 'allow', '/w/r1/app/**': 'allow' });
  }
  t.is(opencodePermission('full', '/w/r1/app')['external_directory'], 'allow');
  t.is(opencodePermission('read-only', '/w')['edit'], 'deny');
});

test('an opencode turn whose last step still wanted its tool calls answered is not a success', (t) => {
  const stopped = opencodeTurnResult({ cost: 0, usage: {}, lastText: 'Writing the file.', lastFinish: 'tool-calls' }, 0);
  t.is(stopped.outcome, 'failure');
  t.regex(stopped.summary, /stopped before the agent finished/);
  t.is(opencodeTurnResult({ cost: 0, usage: {}, lastText: 'Done.', lastFinish: 'stop' }, 0).outcome, 'success');
});
