import '../helpers/env.js';
import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { eventually } from '../helpers/env.js';
import { holdObjects } from '../helpers/held-git.js';
import { testServer } from '../helpers/server.js';
import { untilStanding } from '../helpers/steer.js';
import { startLoopbackWorker } from '../helpers/worker-netns.js';

// A finished turn whose work the hub is slow to take in (docs/workers.md, "The hub is slow to
// apply a result"). On CI's busy lanes a worker's result reached the hub, its work started going
// into the run folder, and the claim's lease lapsed meanwhile (the worker had stopped renewing at
// the turn's end): the hub refused the result, the worker had acked the step, and nothing ever ran
// it again; the run stayed Running for ever. Here the hub's `git fetch` of the work is held (the
// run folder's objects/info/alternates is made a named pipe) for three leases while a real
// `svc worker join` on loopback waits: no lapse is recorded, the worker still holds its claim (a
// slot in use) until the hub says the step ended, and once let go the run succeeds on one claim.

const ACK_WAIT_MS = 3000;

test('a result the hub is slow to apply: the lease does not lapse, the worker holds its claim until the hub has it, the run succeeds once', async (t) => {
  t.timeout(180_000);
  Object.assign(process.env, { SVC_NATS_LISTEN: '127.0.0.1:-1', SVC_STEP_ACK_WAIT_MS: String(ACK_WAIT_MS) });
  const s = await testServer();
  t.teardown(() => s.close());
  const made = await s.post('/api/workers/tokens', { name: 'desk' });
  const { token, hub } = made.body as { token: string; hub: string };
  const workerId = token.split('.')[0]!;
  const worker = startLoopbackWorker(dirname(s.home), hub, token);
  const explain = (e: Error): never => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); };
  const seat = async () => ((await s.get('/api/workers')).body.workers as { workerId: string; state: string; slotsInUse: number }[]).find((w) => w.workerId === workerId);
  await eventually(seat, (w) => w?.state === 'online', 60_000).catch(explain);
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: workerId }))).status, 200);

  const runId = (await s.post('/api/runs', { project: s.projectId, goal: '[until:go][report:success]', workflow: 'linear', harness: 'codex' })).body.runId as string;
  const dispatch = (type: string) => s.service.core.journal.read('dispatch').filter((e) => e.type === type);
  await eventually(() => dispatch('StepClaimed'), (xs) => xs.length === 1, 60_000).catch(explain);

  // the worker made its copy of the run folder (under the cover of the hub's home) from the hub's bundle
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const there = join(worker.cover, dir.slice(dirname(s.home).length));
  await eventually(() => existsSync(join(there, '.git')), (x) => x, 30_000).catch(explain);
  // the hub's run folder: git waits on its objects until the test lets it go
  const letGo = holdObjects(t, dir);

  // the go-ahead, in the worker's copy
  writeFileSync(join(there, 'go'), '');
  const log = async () => ((await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines as { text: string }[]).map((l) => l.text).join('\n');
  await eventually(log, (l) => l.includes('the worker\'s work came back'), 60_000).catch(explain);

  // three leases while the work is held on its way into the run folder
  await new Promise((r) => setTimeout(r, 3 * ACK_WAIT_MS));
  t.deepEqual(dispatch('StepLeaseLapsed'), [], 'no lapse while the hub holds the result');
  t.is(dispatch('StepResultApplied').length, 0, 'the work is still held');
  t.is((await seat())?.slotsInUse, 1, 'the worker holds its claim until the hub has the result');

  letGo();
  await untilStanding(s, runId, 'Succeeded', 60_000).catch(async (e: Error) => explain(new Error(`${e.message}\n--- run log ---\n${await log()}`)));
  t.is(dispatch('StepResultApplied').length, 1);
  t.is(dispatch('StepClaimed').length, 1, 'the step ran once, on one claim');
  t.deepEqual(dispatch('StepLeaseLapsed'), []);
  // told the step ended, the worker acks it and its slot is free
  await eventually(seat, (w) => w?.slotsInUse === 0, 30_000).catch(explain);
  // its renewals after the result asked whether it was in: answered, none recorded as stale
  t.deepEqual(dispatch('StepMessageDiscarded'), []);
  t.true(readFileSync(join(dir, '.turns.log'), 'utf8').includes('fresh codex'), 'the worker\'s work is in the hub\'s run folder');
});
