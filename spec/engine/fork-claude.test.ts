import '../helpers/env.js';
import test from 'ava';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { realCliServer, TWO_STEPS } from '../helpers/real-run.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';

// A fork on the real claude CLI against the scripted model server: a two-step run leaves a file
// uncommitted after step one; a fork from step one's end runs step two in a worktree restored from
// that step end's snapshot, resuming step one's claude session with --fork-session, so the model's
// first request of the fork holds the earlier turns while the source's session file stays as it was.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** claude's session file (<id>.jsonl) wherever under HOME it files it */
const sessionFile = (id: string, dir = process.env['HOME']!): string | undefined => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === `${id}.jsonl`) return p;
    if (statSync(p).isDirectory() && !p.includes('.svc')) {
      const found = sessionFile(id, p);
      if (found) return found;
    }
  }
  return undefined;
};

test('a fork from step one\'s end runs step two on the restored files, resuming step one\'s claude session forked', async (t) => {
  t.timeout(400_000);
  const { s, model } = await realCliServer(t, 'claude', { two: TWO_STEPS });
  const source = (await s.post('/api/runs', { project: s.projectId, goal: 'Write a.txt.', workflow: 'two', harness: 'claude', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, source, basename(s.repo));
  model.push(
    writeFile(join(dir, 'a.txt'), 'from step one\n', 'Writing a.txt.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'a.txt written' }),
    say('STEP-ONE-DONE'),
    writeFile(join(dir, 'b.txt'), 'from the source\'s step two\n', 'Writing b.txt.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'b.txt written' }),
    say('SOURCE-STEP-TWO-DONE'),
  );
  t.is((await control(s, source, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, source, 'Succeeded', 200_000);
  const events = await history(s, source);
  const stepOneEnd = events.find((e) => e.type === 'StepSucceeded' && e.data.node === 'one');
  const session = events.find((e) => e.type === 'StepSessionStarted').data.sessionId as string;
  const snapshot = events.find((e) => e.type === 'SnapshotTaken' && e.data.at === stepOneEnd.seq);
  t.truthy(snapshot, 'step one\'s end was snapshotted');
  t.true(snapshot.seq < events.find((e) => e.type === 'StepStarted' && e.data.node === 'two').seq, 'before step two started');
  t.is(git(s.repo, 'rev-parse', snapshot.data.ref), snapshot.data.commit);
  const file = sessionFile(session);
  t.truthy(file, 'claude filed the source\'s session');
  const sessionBefore = readFileSync(file!);
  t.deepEqual((await detail(s, source)).forkable.map((e: any) => [e.at, e.node]), [[stepOneEnd.seq, 'one']], 'step two ended the workflow: nothing to fork into');

  const scriptedBefore = model.scriptedBodies().length;
  model.replace(
    callMcp('report_outcome', { outcome: 'success', summary: 'finished in the fork' }),
    say('FORK-STEP-TWO-DONE'),
  );
  const made = await s.post(`/api/runs/${source}/forks`, { at: stepOneEnd.seq, note: 'try step two again' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const fork = made.body.runId as string;
  t.is(made.body.url, `${s.url}/runs/${fork}`);
  await untilStanding(s, fork, 'Succeeded', 200_000);

  const forkEvents = await history(s, fork);
  t.deepEqual(forkEvents[0].data.forkedFrom.run, source);
  const started = forkEvents.find((e) => e.type === 'StepStarted').data;
  t.is(started.node, 'two', 'the fork starts at the step after the step end');
  t.is(started.resumeSession, session, 'claude was started on step one\'s session');
  const forkSession = forkEvents.find((e) => e.type === 'StepSessionStarted').data.sessionId as string;
  t.not(forkSession, session, '--fork-session: a session of its own');
  const first = JSON.stringify(model.scriptedBodies()[scriptedBefore]);
  t.true(first.includes('STEP-ONE-DONE'), 'the fork\'s first request holds step one\'s turns');
  t.true(first.includes('Step two: finish the work.'));
  t.false(first.includes('SOURCE-STEP-TWO-DONE'), 'and not the source\'s later ones');
  t.true(readFileSync(file!).equals(sessionBefore), 'the source\'s session file is unchanged');

  const forkDir = worktreeDir(s.home, fork, basename(s.repo));
  t.is(sha(join(forkDir, 'a.txt')), createHash('sha256').update('from step one\n').digest('hex'));
  t.false(existsSync(join(forkDir, 'b.txt')), 'the source\'s step two came after the snapshot');
  t.is(git(forkDir, 'status', '--porcelain'), '?? a.txt', 'uncommitted, as it was');
  t.is(git(forkDir, 'symbolic-ref', '--short', 'HEAD'), `svc/${fork}`);
  const forkDetail = await detail(s, fork);
  t.deepEqual(forkDetail.forkedFrom, { run: source, at: stepOneEnd.seq, step: 'one', note: 'try step two again' });
  t.deepEqual((await detail(s, source)).forks, [fork]);
});
