import '../helpers/env.js';
import test from 'ava';
import { startLoopbackWorker } from '../helpers/worker-netns.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import { openStore } from '../../journal/store.js';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { callChild, childHistory, killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { eventually, freshHome, gitRepo, repoRoot, tempDir, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';

// The last two instants of "The hub is killed mid-turn" (docs/workers.md): `svc serve` killed
// (1) after it recorded a worker's result (StepResultApplied) and before its run recorded the
// step's end, and (2) during the step's later turn `<step>-t2` (a held message). Each time the
// restarted hub finishes the step from what is recorded, or takes the later turn up where it
// runs, instead of running the step again. The hub is a real `svc serve`; the worker a real
// `svc worker join` on loopback, in a mount namespace where the hub's home is an empty folder,
// running the stand-in harness as codex. Instant (1) is made to happen, not waited for: a git put
// first on the hub's PATH (spec/fixtures/git-cut) kills the hub when it drops the dispatch's
// snapshot ref, which it does after the result's record and before the step's end.

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git']).toString().trim();

const freePort = (): Promise<number> => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

const startWorker = startLoopbackWorker;

const call = callChild;
const historyOf = childHistory;

const logOf = async (s: ChildServer, runId: string): Promise<string[]> =>
  (await call(s, 'GET', `/api/runs/${runId}/log?pageSize=200`)).lines.map((l: any) => l.text as string);

/** a hub with one worker online, a project pinned to it; `env`: more for the hub */
const setUp = async (env: Record<string, string>) => {
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const repo = gitRepo();
  const hubEnv = { SVC_NATS_LISTEN: `127.0.0.1:${await freePort()}`, SVC_STEP_ACK_WAIT_MS: '8000', ...env };
  const first = await spawnServer(home, hubEnv);
  const project = await call(first, 'POST', '/api/projects', { name: 'kill-step-end', folders: [{ path: repo }] });
  const { token, hub } = await call(first, 'POST', '/api/workers/tokens', { name: 'desk' });
  const workerId = token.split('.')[0] as string;
  const worker = startWorker(dirname(home), hub, token);
  await eventually(() => call(first, 'GET', '/api/workers'), (r) => r.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  await call(first, 'PATCH', `/api/projects/${project.id}`, { runOn: workerId });
  const folderOf = (runId: string) => worktreeDir(home, runId, basename(repo));
  /** the run folder as the worker has it (under its cover of the hub's home) */
  const theirs = (runId: string) => join(worker.cover, folderOf(runId).slice(dirname(home).length));
  const start = async (goal: string): Promise<string> => {
    const made = await call(first, 'POST', '/api/runs', { project: project.id, goal, workflow: 'linear', harness: 'codex' });
    if (typeof made.runId !== 'string') throw new Error(`the run did not start: ${JSON.stringify(made)}`);
    return made.runId;
  };
  return { home, hubEnv, first, project, workerId, worker, folderOf, theirs, start };
};

const ended = async (s: ChildServer, runId: string, worker: { output(): string }) =>
  eventually(() => call(s, 'GET', `/api/runs/${runId}`), (r) => r.phase === 'Ended', 120_000).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- run log ---\n${(await logOf(s, runId)).join('\n')}\n--- server ---\n${s.output()}\n--- worker ---\n${worker.output()}`);
  });

const dispatchJournal = (home: string) => {
  const store = openStore(join(home, 'db'));
  try {
    return new Journal(store).read('dispatch');
  } finally {
    void store.close();
  }
};

const stop = async (s: ChildServer) => {
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
};

test.serial('(1) the hub killed after it recorded the worker\'s result, before the run recorded the step\'s end: the restarted hub ends the step with the recorded result', async (t) => {
  t.timeout(300_000);
  const mark = join(tempDir('svc-cut-'), 'cut');
  const fixture = join(repoRoot, 'spec', 'fixtures', 'git-cut');
  const u = await setUp({ PATH: `${fixture}:${process.env['PATH']}`, SVC_TEST_REAL_GIT: REAL_GIT, SVC_TEST_CUT_MARK: mark });
  t.teardown(() => { u.first.child.kill('SIGKILL'); });
  const exited = new Promise((r) => u.first.child.once('exit', r));
  const runId = await u.start('[write:work.txt=done][report:success]');
  await Promise.race([exited, new Promise((_, no) => setTimeout(() => no(new Error(`the hub was not cut off\n--- server ---\n${u.first.output()}\n--- worker ---\n${u.worker.output()}`)), 120_000).unref())]);
  t.true(existsSync(mark), 'the hub was killed as it dropped the dispatch\'s ref');
  const recorded = dispatchJournal(u.home).map((e) => e.type);
  t.true(recorded.includes('StepResultApplied'), `the result was recorded before the kill: ${recorded.join(', ')}`);

  const second = await spawnServer(u.home, u.hubEnv);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  const run = await ended(second, runId, u.worker);
  t.is(run.outcome, 'success');
  const types = (await historyOf(second, runId)).map((e) => e.type);
  t.false(types.includes('StepInterrupted'), 'the step was not run again');
  t.is(types.filter((x) => x === 'StepStarted').length, 1, types.join(', '));
  t.is(types.filter((x) => x === 'StepSucceeded').length, 1, types.join(', '));
  const turns = readFileSync(join(u.folderOf(runId), '.turns.log'), 'utf8').trim().split('\n');
  t.is(turns.length, 1, `one turn ran: ${turns.join(' | ')}`);
  t.is(readFileSync(join(u.folderOf(runId), 'work.txt'), 'utf8'), 'done');
  const log = await logOf(second, runId);
  t.true(log.some((l) => l.includes(`its result came back from worker ${u.workerId} before the service stopped`)), log.join('\n'));
  t.is(execFileSync(REAL_GIT, ['for-each-ref', 'refs/svc/dispatch/'], { cwd: u.folderOf(runId) }).toString(), '', 'the dispatch\'s ref is dropped at the take-up');
  // the next dispatch starts the hub's consumer of SVC_OUT: the killed hub's unacked result and
  // work parts come again, and are skipped (the result by its record, the parts as the applied claim's)
  const next = (await call(second, 'POST', '/api/runs', { project: u.project.id, goal: '[report:success]', workflow: 'linear', harness: 'codex' })).runId as string;
  t.is((await ended(second, next, u.worker)).outcome, 'success');
  await stop(second);
  const dispatch = dispatchJournal(u.home) as { type: string; data: { runId?: string; stepId: string } }[];
  const said = JSON.stringify(dispatch);
  const steps = dispatch.filter((e) => e.type === 'StepDispatched' && e.data.runId === runId).map((e) => e.data.stepId);
  t.is(steps.length, 1, `the step was dispatched once: ${said}`);
  t.is(dispatch.filter((e) => e.type === 'StepResultApplied' && e.data.stepId === steps[0]).length, 1, said);
  t.is(dispatch.filter((e) => e.type === 'StepMessageDiscarded').length, 0, said);
});

test.serial('(2) the hub killed during the step\'s second turn (<step>-t2): the restarted hub takes that turn up where it runs', async (t) => {
  t.timeout(300_000);
  const u = await setUp({});
  t.teardown(() => { u.first.child.kill('SIGKILL'); });
  const runId = await u.start('[until:go][report:success]');
  const theirs = u.theirs(runId);
  await eventually(() => existsSync(join(theirs, '.turns.log')), (x) => x, 60_000);
  // codex takes no message mid-turn: held, it is the step's second turn, which waits for its own go-ahead
  const sent = await call(u.first, 'POST', `/api/runs/${runId}/messages`, { text: 'and then [until:go2]', delivery: 'Resume' });
  t.truthy(sent.messageId ?? sent.id ?? sent, JSON.stringify(sent));
  writeFileSync(join(theirs, 'go'), '');
  // the worker makes the folder afresh for each turn: for a moment there is none
  const turnsThere = () => (existsSync(join(theirs, '.turns.log')) ? readFileSync(join(theirs, '.turns.log'), 'utf8').trim().split('\n') : []);
  await eventually(turnsThere, (xs) => xs.some((x) => x.includes('-t2 resumed')), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${u.worker.output()}`); });
  const [stepLine] = turnsThere();
  const stepId = stepLine!.split(' ')[0]!;
  await killHard(u.first);
  t.log(`the hub is killed during ${stepId}-t2`);

  const second = await spawnServer(u.home, u.hubEnv);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  // the restarted hub has looked at the step before the second turn ends
  await eventually(() => logOf(second, runId), (l) => l.some((x) => x.includes('when the service stopped')), 60_000);
  writeFileSync(join(theirs, 'go2'), '');
  const run = await ended(second, runId, u.worker);
  t.is(run.outcome, 'success');
  const types = (await historyOf(second, runId)).map((e) => e.type);
  t.false(types.includes('StepInterrupted'), 'the step was not run again');
  t.is(types.filter((x) => x === 'StepStarted').length, 1, types.join(', '));
  t.is(types.filter((x) => x === 'StepSucceeded').length, 1, types.join(', '));
  const turns = readFileSync(join(u.folderOf(runId), '.turns.log'), 'utf8').trim().split('\n');
  t.deepEqual(turns, [`${stepId} fresh codex`, `${stepId}-t2 resumed codex`], 'each turn ran once');
  const log = await logOf(second, runId);
  t.true(log.some((l) => l.includes(`was running on worker ${u.workerId} when the service stopped; its turn goes on there`)), log.join('\n'));
  await stop(second);
  const claimed = dispatchJournal(u.home).filter((e) => e.type === 'StepClaimed').map((e) => (e.data as { stepId: string }).stepId);
  t.deepEqual(claimed, [stepId, `${stepId}-t2`], 'no turn dispatched again');
});
