import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { hang, writeFile } from '../fixtures/model-server/script.js';
import { joinWorkers, makeMachines } from '../helpers/worker-netns.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';

// After the last delivery the step fails with "worker lost" (docs/workers.md, "A worker killed
// mid-turn"): two worker machines (network and mount namespaces of their own), the project on Run
// on `any`, at most two deliveries (SVC_STEP_MAX_DELIVERIES). Each machine, once it has the step,
// its claude has written a file in the run folder there, and it has renewed its lease a few times,
// dies (every process in its namespace killed). The first lease lapses and the step is redone on
// the other machine (its renewals taken: the redo is not stopped nor run again); that one dies too:
// the step fails with the reason "worker lost", the run's detail and history say so, and nothing
// of either killed turn is on the run's branch or in the hub's run folder.

const net = makeMachines('svcl', 82, 2);
test.after.always(() => net.cleanup());


test('a step whose every delivery dies with its worker fails with "worker lost", and nothing of the killed turns lands', async (t) => {
  t.timeout(400_000);
  realCliEnv('claude');
  Object.assign(process.env, { SVC_NATS_LISTEN: `${net.hubIp}:-1`, SVC_WORKER_TTL_MS: '3000', SVC_STEP_ACK_WAIT_MS: '4000', SVC_STEP_MAX_DELIVERIES: '2' });
  const model = await startModelServer([], net.hubIp);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());

  const { workers, ids, output } = await joinWorkers(t, net, s, model.url);
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: 'any' }))).body.runOn, 'any');
  const logOf = async (runId: string) => ((await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines ?? []).map((l: any) => `${l.source} ${l.text}`).join('\n');

  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Commit a file.', workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  const failed = async (e: Error) => { throw new Error(`${e.message}\n--- run log ---\n${await logOf(runId)}\n${output()}`); };
  // each delivery: its claude writes a file in the run folder on its machine (at the hub's path),
  // then the model goes quiet, and once the worker has renewed its lease a few times it dies
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  model.push(writeFile(join(dir, 'killed1.txt'), 'one\n', 'Writing.'), hang(), writeFile(join(dir, 'killed2.txt'), 'two\n', 'Writing.'), hang());
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const killedOn: string[] = [];
  for (const n of [1, 2]) {
    await Promise.race([model.waitForScripted(2 * n), untilStanding(s, runId, 'Failed', 200_000).then(() => { throw new Error(`the run failed before delivery ${n} ran`); })]).catch(failed);
    const quiet = model.requests.filter((r) => r.scripted)[2 * n - 1]!;
    t.regex(JSON.stringify(quiet.body), /File created successfully/, `the file of delivery ${n} was written on its machine`);
    const at = net.machines.findIndex((m) => m.ip === quiet.from);
    t.true(at >= 0, `delivery ${n} ran on a worker machine (${quiet.from})`);
    killedOn.push(ids[at]!);
    await sleep(4500); // a lease's length: the worker renews three times meanwhile
    workers[at]!.killAll();
  }
  t.deepEqual([...killedOn].sort(), [...ids].sort(), 'the step was redone on the other machine');

  // the step fails with "worker lost": the run's detail and its history say so
  await untilStanding(s, runId, 'Failed', 200_000).catch(failed);
  t.like((await s.get(`/api/runs/${runId}`)).body, { standing: 'Failed', outcome: 'failure' });
  const events = await history(s, runId);
  const stepFailed = events.find((e) => e.type === 'StepFailed' || (e.type === 'StepFinished' && e.data?.outcome === 'failure'));
  t.truthy(stepFailed, JSON.stringify(events.map((e) => e.type)));
  t.regex(JSON.stringify(stepFailed), /worker lost/);
  // the run's detail (get_run, the run page): the step went to both machines, and was lost
  const d = await detail(s, runId);
  t.log(JSON.stringify(d.machine));
  t.regex(d.machine?.steps?.at(-1)?.lost ?? '', /^worker lost/, JSON.stringify(d.machine));
  t.deepEqual([...(d.machine.steps.at(-1).movedFrom ?? []).map((m: any) => m.workerId), d.machine.steps.at(-1).workerId], killedOn);

  // the journal: two claims by the two workers, then the step lost; nothing applied
  const journal = s.service.core.journal.read('dispatch').map((e) => ({ type: e.type, data: e.data as any }));
  const stepId = journal.find((e) => e.type === 'StepDispatched' && e.data.runId === runId)!.data.stepId;
  const mine = journal.filter((e) => e.data.stepId === stepId);
  t.deepEqual(mine.filter((e) => e.type === 'StepClaimed').map((e) => e.data.workerId), killedOn);
  t.is(mine.filter((e) => e.type === 'StepLost').length, 1);
  t.is(mine.filter((e) => e.type === 'StepResultApplied').length, 0);
  t.deepEqual(mine.filter((e) => e.type === 'StepMessageDiscarded').map((e) => e.data), [], 'no renewal of either claim was refused');
  t.is(events.filter((e) => e.type === 'StepStarted').length, 1, 'the step started once: its redo was not stopped and run again');
  t.false(existsSync(join(dir, 'killed1.txt')) || existsSync(join(dir, 'killed2.txt')), "nothing of the killed turns is in the hub's run folder");

  // nothing of the killed turns is on the run's branch nor in its folder's history
  const git = (...args: string[]) => execFileSync('git', ['-C', s.repo, ...args]).toString().trim();
  t.is(git('rev-list', '--count', `main..svc/${runId}`), '0');
  const log = await logOf(runId);
  t.true(log.includes(`worker ${killedOn[0]} is lost and its lease on the step lapsed`), log);
  t.regex(log, /worker lost/);
});
