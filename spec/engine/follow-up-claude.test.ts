import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { REAL, realCliServer } from '../helpers/real-run.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';

// A follow-up on the real claude CLI against the scripted model server: the first run writes a
// file and succeeds; its follow-up is a new run on the same branch and worktree that resumes the
// same claude session (--resume with the session the first run recorded), so the model's first
// request of the follow-up carries the earlier turns; its commit lands on svc/<first run>.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

test('a follow-up of a succeeded claude run resumes its session on the same branch and worktree', async (t) => {
  t.timeout(300_000);
  const { s, model } = await realCliServer(t, 'claude', { real: REAL });
  const first = (await s.post('/api/runs', { project: s.projectId, goal: 'Write first.txt.', workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, first, basename(s.repo));
  model.push(
    writeFile(join(dir, 'first.txt'), 'first\n', 'Writing the file.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'first.txt written' }),
    say('FIRST-RUN-DONE'),
  );
  t.is((await control(s, first, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, first, 'Succeeded', 150_000);
  const session = (await history(s, first)).find((e) => e.type === 'StepSessionStarted').data.sessionId as string;
  const scriptedBefore = model.scriptedBodies().length;

  model.replace(
    runShell('git add -A && git -c user.name=t -c user.email=t@t commit -q -m "follow-up work" && test -f first.txt && echo ok > second.txt', 'Committing.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'committed' }),
    say('FOLLOW-UP-DONE'),
  );
  const made = await s.post(`/api/runs/${first}/follow-ups`, { text: 'Commit what you wrote.' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const next = made.body.runId as string;
  t.is(made.body.url, `${s.url}/runs/${next}`);
  const done = await untilStanding(s, next, 'Succeeded', 150_000);

  const started = (await history(s, next)).find((e) => e.type === 'StepStarted').data;
  t.is(started.resumeSession, session, 'the CLI was started with --resume <the first run\'s session>');
  t.is(started.harness, 'claude');
  const firstOfFollowUp = JSON.stringify(model.scriptedBodies()[scriptedBefore]);
  t.true(firstOfFollowUp.includes('FIRST-RUN-DONE'), 'the follow-up\'s first request carries the earlier turns');
  t.true(firstOfFollowUp.includes('Commit what you wrote.'));
  t.true(existsSync(join(dir, 'second.txt')), 'the follow-up ran in the first run\'s worktree, where first.txt is');
  t.false(existsSync(worktreeDir(s.home, next, basename(s.repo))), 'no worktree of its own');
  t.is(git(s.repo, 'log', '-1', '--format=%s', `svc/${first}`), 'follow-up work', 'the commit landed on the first run\'s branch');
  t.is(readFileSync(join(dir, 'first.txt'), 'utf8'), 'first\n');
  t.is(git(s.repo, 'branch', '--list', `svc/${next}`), '', 'no branch of its own');

  t.is(done.continues, first);
  t.deepEqual((await detail(s, first)).continuedBy, [next]);
  t.deepEqual((await s.get(`/api/runs/${first}`)).body.continuedBy, [next]);
  t.is((await s.get(`/api/runs/${next}`)).body.continues, first);
});
