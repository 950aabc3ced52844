import '../helpers/env.js';
import test from 'ava';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// A follow-up with no agent session to resume (the run it continues had no agent turn): the turn
// starts a fresh session whose prompt opens with a summary of the earlier run. The scripted agent
// acts on every directive in its prompt, so a directive in the earlier run's goal, acted on in the
// follow-up, shows that the summary reached it.

const COMMAND_ONLY = `digraph commandonly {
  start [kind=start]
  check [kind=command, command="true"]
  done  [kind=exit]
  start -> check -> done
}`;

test('a follow-up of a run without a session starts afresh, told what the earlier run did', async (t) => {
  const s = await testServer({ workflows: { commandonly: COMMAND_ONLY } });
  t.teardown(() => s.close());
  const first = await startRun(s, { goal: 'earlier goal [write:from-summary.txt=yes]', workflow: 'commandonly' });
  await untilStanding(s, first, 'Succeeded');
  const made = await s.post(`/api/runs/${first}/follow-ups`, { text: 'now this [write:from-text.txt=yes]' });
  t.is(made.status, 200, JSON.stringify(made.body));
  await untilStanding(s, made.body.runId, 'Succeeded');
  const started = (await history(s, made.body.runId)).find((e) => e.type === 'StepStarted').data;
  t.is(started.resumeSession, undefined, 'nothing to resume');
  const dir = worktreeDir(s.home, first, basename(s.repo));
  t.true(existsSync(join(dir, 'from-text.txt')), 'the follow-up text is the prompt');
  t.true(existsSync(join(dir, 'from-summary.txt')), 'the earlier run\'s goal is in the summary the fresh session is given');
});
