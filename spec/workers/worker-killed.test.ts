import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, hang, runShell, say } from '../fixtures/model-server/script.js';
import { joinWorkers, makeMachines } from '../helpers/worker-netns.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control, untilStanding } from '../helpers/steer.js';

// A worker dies mid-turn (docs/workers.md, "When things die"): two worker machines (network and
// mount namespaces of their own, their own HOME and claude config), the project on Run on `any`.
// A run's step runs on one; its follow-up resumes that session there (sticky) and, mid-turn, after
// a commit, every process of that machine is killed. The lease lapses and the step is redone on the
// other machine from the step-start snapshot and the session as of the last step end: the model's
// first request there holds the first run's turns (the session moved: that machine never ran it)
// and none of the killed turn's; the branch holds exactly one commit for the step; the journal
// holds two claims of the step by different workers.

const net = makeMachines('svce', 78, 2);
test.after.always(() => net.cleanup());

const COMMIT = 'echo two > two.txt && git add two.txt && git -c user.name=t -c user.email=t@t commit -q -m "follow-up work"';

test('a worker killed mid-turn: the step is redone on the other worker from its start, with the session as of the last step end', async (t) => {
  t.timeout(400_000);
  realCliEnv('claude');
  Object.assign(process.env, { SVC_NATS_LISTEN: `${net.hubIp}:-1`, SVC_WORKER_TTL_MS: '3000', SVC_STEP_ACK_WAIT_MS: '6000' });
  const model = await startModelServer([], net.hubIp);
  t.teardown(() => model.close());
  // the hub checks a harness is logged in (at its start) before a follow-up starts, even when its steps run on workers
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());

  const { workers, ids, output } = await joinWorkers(t, net, s, model.url);
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: 'any' }))).body.runOn, 'any');
  const logOf = async (runId: string) => ((await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines ?? []).map((l: any) => `${l.source} ${l.text}`).join('\n');
  const failed = (runId: string) => async (e: Error) => { throw new Error(`${e.message}\n--- run log ---\n${await logOf(runId)}\n${await logOf(first)}\n${output()}`); };

  // the first run: one step, on whichever worker placement picks
  const first = (await s.post('/api/runs', { project: s.projectId, goal: 'Say hello.', workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  model.push(callMcp('report_outcome', { outcome: 'success', summary: 'said hello' }), say('FIRST-RUN-DONE'));
  t.is((await control(s, first, 'Resume')).body.outcome, 'Applied');
  await untilStanding(s, first, 'Succeeded', 200_000).catch(failed(first));
  const dispatches = () => [...s.service.workers.dispatches.current.values()];
  const x = dispatches().find((d) => d.runId === first)!.claim!.workerId;
  const xAt = ids.indexOf(x);
  const [xIp, yIp] = [net.machines[xAt]!.ip, net.machines[1 - xAt]!.ip];
  t.true(model.requests.filter((r) => r.scripted).every((r) => r.from === xIp), 'the first run ran on one machine only');

  // its follow-up resumes the session on the same machine (sticky), commits, and the model then goes quiet
  model.push(runShell(COMMIT, 'Committing.'), hang(), runShell(COMMIT, 'Committing.'), callMcp('report_outcome', { outcome: 'success', summary: 'committed' }), say('FOLLOW-UP-DONE'));
  const made = await s.post(`/api/runs/${first}/follow-ups`, { text: 'Commit two.txt.' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const next = made.body.runId as string;
  const unlessFailed = (count: number) => Promise.race([model.waitForScripted(count), untilStanding(s, next, 'Failed', 200_000).then(() => { throw new Error('the follow-up failed'); })]).catch(failed(next));
  await unlessFailed(4);
  t.is(model.requests.filter((r) => r.scripted)[3]!.from, xIp, 'the follow-up ran on the first run\'s machine (sticky)');
  const branch = `svc/${first}`;
  const dir = dispatches().find((d) => d.runId === next)!;

  // the machine dies mid-turn, its commit made there
  const killedAt = Date.now();
  workers[xAt]!.killAll();
  await unlessFailed(5);
  t.log(`killed to the first model request on the other machine: ${Date.now() - killedAt} ms (ack_wait 6000 ms, presence ttl 3000 ms)`);
  const done = await untilStanding(s, next, 'Succeeded', 200_000).catch(failed(next));
  t.is(done.outcome, 'success');

  // redone on the other machine: its first request holds the first run's turns (the session moved), none of the killed turn's
  const scripted = model.requests.filter((r) => r.scripted);
  const redo = scripted[4]!;
  t.is(redo.from, yIp, 'the step was redone on the other machine');
  const body = JSON.stringify(redo.body);
  t.true(body.includes('FIRST-RUN-DONE'), 'the session as of the last step end reached the other machine');
  t.true(body.includes('Commit two.txt.'));
  t.false(body.includes('git add two.txt'), 'nothing of the killed turn is in the resumed session');
  t.true(scripted.slice(4).every((r) => r.from === yIp));

  // one commit for the step on the branch; the journal has two claims of the step, by different workers
  const git = (...args: string[]) => execFileSync('git', ['-C', s.repo, ...args]).toString().trim();
  t.is(git('rev-list', '--count', `main..${branch}`), '1');
  t.is(git('log', '-1', '--format=%s', branch), 'follow-up work');
  const journal = s.service.core.journal.read('dispatch');
  const claims = journal.filter((e) => e.type === 'StepClaimed' && (e.data as any).stepId === dir.stepId).map((e) => e.data as any);
  t.deepEqual(claims.map((c) => c.workerId), [x, ids[1 - xAt]]);
  t.true(claims[1].token > claims[0].token);
  const log = await logOf(next);
  t.true(log.includes(`worker ${x} is lost and its lease on the step lapsed`), log);
  t.true(log.includes(`attempt 2 placed on worker ${ids[1 - xAt]}`), log);
});
