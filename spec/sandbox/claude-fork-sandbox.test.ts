import '../helpers/env.js';
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { realCliServer } from '../helpers/real-run.js';
import { control, history, untilStanding } from '../helpers/steer.js';

// A forked claude conversation names the source run's folder. In the fork's sandbox that path is
// an empty placeholder: the agent's shell, with claude's own permissions out of the way (full),
// writes there and nothing reaches the source run; the session the fork resumes is there.

const TWO_FULL = `digraph two {
  start [kind=start]
  one   [kind=agent, prompt="Step one: {{goal}}", tools=full]
  two   [kind=agent, prompt="Step two: finish the work.", tools=full]
  done  [kind=exit]
  start -> one
  one -> two [condition="outcome=success"]
  two -> done [condition="outcome=success"]
}`;

test('a claude fork in the sandbox resumes the source\'s session and cannot write into the source run\'s folder through the path it names', async (t) => {
  t.timeout(400_000);
  const { s, model } = await realCliServer(t, 'claude', { two: TWO_FULL });
  const source = (await s.post('/api/runs', { project: s.projectId, goal: 'Write a.txt.', workflow: 'two', harness: 'claude', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, source, basename(s.repo));
  model.push(
    writeFile(join(dir, 'a.txt'), 'from step one\n', 'Writing a.txt.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'a.txt written' }), say('STEP-ONE-DONE'),
    callMcp('report_outcome', { outcome: 'success', summary: 'step two done' }), say('SOURCE-STEP-TWO-DONE'),
  );
  t.is((await control(s, source, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, source, 'Succeeded', 200_000);
  const stepOneEnd = (await history(s, source)).find((e) => e.type === 'StepSucceeded' && e.data.node === 'one');

  const before = model.scriptedBodies().length;
  model.replace(
    runShell(`echo fork > ${join(dir, 'intruder.txt')}; echo "[exit $?]"; ls ${dir} | wc -l`),
    callMcp('report_outcome', { outcome: 'success', summary: 'finished in the fork' }), say('FORK-STEP-TWO-DONE'),
  );
  const made = await s.post(`/api/runs/${source}/forks`, { at: stepOneEnd.seq });
  t.is(made.status, 200, JSON.stringify(made.body));
  const fork = made.body.runId as string;
  await untilStanding(s, fork, 'Succeeded', 200_000);
  const started = (await history(s, fork)).find((e) => e.type === 'StepStarted').data;
  t.true(started.sandboxed, 'the fork\'s turn ran in the sandbox');
  t.true(JSON.stringify(model.scriptedBodies()[before]).includes('STEP-ONE-DONE'), 'the session the fork needs was there: its first request holds step one\'s turns');
  const ran = JSON.stringify(model.scriptedBodies()[before + 1] ?? '');
  t.true(ran.includes('[exit 0]'), `the shell ran: ${ran.slice(0, 300)}`);
  t.false(existsSync(join(dir, 'intruder.txt')), 'nothing written into the source run\'s folder');
  t.is(readFileSync(join(dir, 'a.txt'), 'utf8'), 'from step one\n', 'the source\'s files as they were');
});
