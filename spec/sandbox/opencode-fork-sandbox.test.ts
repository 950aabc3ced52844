import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { realCliServer, TWO_STEPS } from '../helpers/real-run.js';
import { history, control, untilStanding } from '../helpers/steer.js';

// opencode's fork copies the source's session, which names the source's folder; the fork's turn
// runs in the fork's own sandbox, its folder bound at that path: the session is there, the work
// lands in the fork, and the source's folder is untouched (lib/service/sandbox.ts sessionDirOf).
test('a fork on opencode runs sandboxed, resumes a copy of the source\'s session, and writes into the fork, never the source', async (t) => {
  t.timeout(400_000);
  const { s, model } = await realCliServer(t, 'opencode', { two: TWO_STEPS });
  const source = (await s.post('/api/runs', { project: s.projectId, goal: 'Write a.txt.', workflow: 'two', harness: 'opencode', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, source, basename(s.repo));
  model.push(
    writeFile(join(dir, 'a.txt'), 'from step one\n', 'Writing a.txt.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'a.txt written' }), say('STEP-ONE-DONE'),
    callMcp('report_outcome', { outcome: 'success', summary: 'step two done' }), say('SOURCE-STEP-TWO-DONE'),
  );
  t.is((await control(s, source, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, source, 'Succeeded', 200_000);
  const events = await history(s, source);
  const stepOneEnd = events.find((e) => e.type === 'StepSucceeded' && e.data.node === 'one');
  const session = events.find((e) => e.type === 'StepSessionStarted').data.sessionId as string;

  const before = model.scriptedBodies().length;
  // the fork writes through the path its session names: the source's
  model.replace(
    writeFile(join(dir, 'b.txt'), 'written in the fork\n'),
    callMcp('report_outcome', { outcome: 'success', summary: 'finished in the fork' }), say('FORK-STEP-TWO-DONE'),
  );
  const made = await s.post(`/api/runs/${source}/forks`, { at: stepOneEnd.seq });
  t.is(made.status, 200, JSON.stringify(made.body));
  const fork = made.body.runId as string;
  await untilStanding(s, fork, 'Succeeded', 200_000);
  const forkEvents = await history(s, fork);
  const started = forkEvents.find((e) => e.type === 'StepStarted').data;
  t.true(started.sandboxed, 'the fork\'s turn ran in the sandbox');
  t.is(started.resumeSession, session);
  t.not(forkEvents.find((e) => e.type === 'StepSessionStarted').data.sessionId, session, '--fork: a session of its own');
  t.true(JSON.stringify(model.scriptedBodies()[before]).includes('STEP-ONE-DONE'), 'the fork\'s first request holds step one\'s turns');

  const forkDir = worktreeDir(s.home, fork, basename(s.repo));
  t.is(readFileSync(join(forkDir, 'a.txt'), 'utf8'), 'from step one\n');
  t.is(readFileSync(join(forkDir, 'b.txt'), 'utf8'), 'written in the fork\n', 'what the session calls the source\'s folder is the fork\'s');
  t.throws(() => readFileSync(join(dir, 'b.txt')), undefined, 'nothing written into the source run\'s folder');
});
