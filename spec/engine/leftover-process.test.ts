import '../helpers/env.js';
import test from 'ava';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';
import { killHard, spawnServer } from '../helpers/child-server.js';
import { groupMembers } from '../../lib/harness/process-group.js';

// Recovery never runs a step again beside its old process. The scripted stand-in starts a process
// group with no lifeline ([orphan]) and reports it as the turn's process, so it outlives the
// SIGKILL of the server the way a CLI from before the lifeline (or one whose wrapper was killed)
// would; the restarted server must end it, and say so, before the step runs again.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const history = async (url: string, runId: string) => (await json(`${url}/api/runs/${runId}/history?pageSize=200`)).events as any[];
// a zombie (killed, not yet reaped by whoever adopted it) counts as gone
const alive = (pid: number, startTime: string): boolean => groupMembers({ pid, startTime }).includes(pid);

test('a restart ends the process group a crashed server left running before it runs the step again, and records it', async (t) => {
  t.timeout(180_000);
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const first = await spawnServer(home);
  t.teardown(() => { first.child.kill('SIGKILL'); });
  const project = await post(`${first.url}/api/projects`, { name: 'leftover', folders: [{ path: gitRepo() }] });
  const { runId } = await post(`${first.url}/api/runs`, { project: project.id, goal: '[orphan][sleepfresh:60000][write:out.txt=finished]', workflow: 'linear' });
  const started = await eventually(() => history(first.url, runId), (h) => h.some((e) => e.type === 'StepProcessStarted'), 60_000);
  const { pid, startTime, stepId } = started.find((e) => e.type === 'StepProcessStarted').data;
  t.teardown(() => { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } });

  await killHard(first);
  t.true(alive(pid, startTime), 'the stand-in has no lifeline: it outlives the server');
  t.deepEqual(groupMembers({ pid, startTime }), [pid]);

  const second = await spawnServer(home);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  const done = await eventually(() => json(`${second.url}/api/runs/${runId}`), (r) => r.phase === 'Ended', 90_000);
  t.is(done.outcome, 'success');
  t.deepEqual(groupMembers({ pid, startTime }), [], 'the leftover group was ended');

  const after = await history(second.url, runId);
  const types = after.map((e) => e.type);
  const killed = types.indexOf('StepProcessKilled');
  t.true(killed >= 0, 'the kill is recorded');
  t.deepEqual(after[killed].data, { stepId, pid, processes: 1 });
  t.true(killed < types.indexOf('StepInterrupted'), 'the group is ended before the step is recorded as interrupted');
  t.true(types.lastIndexOf('StepStarted') > killed, 'the step runs again only afterwards');
  const thread = (await json(`${second.url}/api/runs/${runId}/thread?pageSize=100`)).rows as any[];
  t.true(thread.some((r) => r.kind === 'note' && r.author === 'service' && r.text.includes(`process group ${pid}`)), 'the thread shows it');
  const log = (await json(`${second.url}/api/runs/${runId}/log?pageSize=200`)).lines as any[];
  t.true(log.some((l) => l.source === 'service' && l.text.includes('leftover agent process')));
});

test('a recorded process that is already gone is not signalled and records no kill', async (t) => {
  t.timeout(180_000);
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const first = await spawnServer(home);
  t.teardown(() => { first.child.kill('SIGKILL'); });
  const project = await post(`${first.url}/api/projects`, { name: 'gone', folders: [{ path: gitRepo() }] });
  const { runId } = await post(`${first.url}/api/runs`, { project: project.id, goal: '[orphan][sleepfresh:60000]', workflow: 'linear' });
  const started = await eventually(() => history(first.url, runId), (h) => h.some((e) => e.type === 'StepProcessStarted'), 60_000);
  const { pid, startTime } = started.find((e) => e.type === 'StepProcessStarted').data;
  await killHard(first);
  process.kill(-pid, 'SIGKILL');
  await eventually(() => alive(pid, startTime), (a) => !a);

  const second = await spawnServer(home);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  await eventually(() => json(`${second.url}/api/runs/${runId}`), (r) => r.phase === 'Ended', 90_000);
  const types = (await history(second.url, runId)).map((e) => e.type);
  t.false(types.includes('StepProcessKilled'));
  t.true(types.includes('StepInterrupted'));
});
