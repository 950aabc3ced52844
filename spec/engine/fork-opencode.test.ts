import '../helpers/env.js';
import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { realCliServer, TWO_STEPS } from '../helpers/real-run.js';
import { control, history, untilStanding } from '../helpers/steer.js';

// A fork on the real opencode CLI against the scripted model server: the fork's first turn is
// `opencode run --session <step one's session> --fork`, so the model's first request of the fork
// holds step one's turns, while step one's session (as `opencode export` gives it) stays as it was.

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** the session's messages as `opencode export` gives them (its own words for what it holds) */
const exported = async (cwd: string, session: string): Promise<unknown> => {
  // not execFileSync: the server under test runs in this process and must keep answering
  const { stdout: out } = await promisify(execFile)(join(process.cwd(), 'node_modules', '.bin', 'opencode'), ['export', session], { cwd, encoding: 'utf8', env: process.env });
  return (JSON.parse(out.slice(out.indexOf('{'))) as { messages: unknown }).messages;
};

test('a fork from step one\'s end on opencode forks step one\'s session; the source\'s session is unchanged', async (t) => {
  t.timeout(400_000);
  const { s, model } = await realCliServer(t, 'opencode', { two: TWO_STEPS });
  const source = (await s.post('/api/runs', { project: s.projectId, goal: 'Write a.txt.', workflow: 'two', harness: 'opencode', start: false })).body.runId as string;
  const dir = worktreeDir(s.home, source, basename(s.repo));
  model.push(
    writeFile(join(dir, 'a.txt'), 'from step one\n', 'Writing a.txt.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'a.txt written' }),
    say('STEP-ONE-DONE'),
    callMcp('report_outcome', { outcome: 'success', summary: 'step two done' }),
    say('SOURCE-STEP-TWO-DONE'),
  );
  t.is((await control(s, source, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, source, 'Succeeded', 200_000);
  const events = await history(s, source);
  const stepOneEnd = events.find((e) => e.type === 'StepSucceeded' && e.data.node === 'one');
  const session = events.find((e) => e.type === 'StepSessionStarted').data.sessionId as string;

  const sessionBefore = await exported(dir, session);
  t.true(JSON.stringify(sessionBefore).includes('STEP-ONE-DONE'));
  const before = model.scriptedBodies().length;
  model.replace(callMcp('report_outcome', { outcome: 'success', summary: 'finished in the fork' }), say('FORK-STEP-TWO-DONE'));
  const fork = (await s.post(`/api/runs/${source}/forks`, { at: stepOneEnd.seq })).body.runId as string;
  await untilStanding(s, fork, 'Succeeded', 200_000);
  const forkEvents = await history(s, fork);
  t.is(forkEvents.find((e) => e.type === 'StepStarted').data.resumeSession, session);
  t.not(forkEvents.find((e) => e.type === 'StepSessionStarted').data.sessionId, session, '--fork: a session of its own');
  const first = JSON.stringify(model.scriptedBodies()[before]);
  t.true(first.includes('STEP-ONE-DONE'), 'the fork\'s first request holds step one\'s turns');
  t.false(first.includes('SOURCE-STEP-TWO-DONE'));
  const forkDir = worktreeDir(s.home, fork, basename(s.repo));
  t.is(readFileSync(join(forkDir, 'a.txt'), 'utf8'), 'from step one\n');
  t.true(git(forkDir, 'status', '--porcelain').split('\n').includes('?? a.txt'));

  const after = await exported(dir, session);
  t.deepEqual(after, sessionBefore, 'step one\'s session is as it was: the fork\'s turn went into a copy');
  t.false(JSON.stringify(after).includes('FORK-STEP-TWO-DONE'));
});
