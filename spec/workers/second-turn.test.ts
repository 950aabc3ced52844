import '../helpers/env.js';
import test from 'ava';
import { startLoopbackWorker } from '../helpers/worker-netns.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { untilStanding } from '../helpers/steer.js';

// A step's later turn on a worker (docs/workers.md): a message sent to a CLI that takes none
// mid-turn (codex, opencode) is held for the step, and the step continues with it in a second turn
// once the first ends. That turn is a dispatch of its own (`<step>-t2`): under the step's own id the
// queue would store it as a repeat and the fence would take nothing for an ended dispatch, so the
// step waited for ever. The stand-in harness runs as codex on a worker on loopback, in a mount
// namespace where the hub's home is an empty folder (it makes the run folder at the hub's path).

const startWorker = startLoopbackWorker;

test('a message held for a remote codex step runs as the step\'s second turn on the worker, and the run succeeds', async (t) => {
  t.timeout(180_000);
  process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
  const s = await testServer();
  t.teardown(() => s.close());
  const made = await s.post('/api/workers/tokens', { name: 'desk' });
  const { token, hub } = made.body as { token: string; hub: string };
  const workerId = token.split('.')[0]!;
  const worker = startWorker(dirname(s.home), hub, token);
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: workerId }))).status, 200);

  const runId = (await s.post('/api/runs', { project: s.projectId, goal: '[until:go][report:success]', workflow: 'linear', harness: 'codex' })).body.runId as string;
  const steps = () => s.service.core.journal.read('dispatch').filter((e) => e.type === 'StepClaimed').map((e) => (e.data as { stepId: string }).stepId);
  await eventually(steps, (xs) => xs.length === 1, 60_000).catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  const [stepId] = steps();
  // codex takes no message mid-turn: the message is held for the step
  const sent = await s.post(`/api/runs/${runId}/messages`, { text: 'and then tidy up', delivery: 'Resume' });
  t.true(sent.status < 300, JSON.stringify(sent.body));
  // the go-ahead, in the worker's copy of the run folder (under the cover of the hub's home)
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const there = join(worker.cover, dir.slice(dirname(s.home).length));
  await eventually(() => existsSync(there), (x) => x, 30_000);
  writeFileSync(join(there, 'go'), '');
  await untilStanding(s, runId, 'Succeeded', 90_000).catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  t.deepEqual(steps(), [stepId, `${stepId}-t2`], 'the second turn was a dispatch of its own, claimed on the worker');
  const turns = readFileSync(join(dir, '.turns.log'), 'utf8').trim().split('\n');
  t.deepEqual(turns.slice(-2), [`${stepId} fresh codex`, `${stepId}-t2 resumed codex`], 'both turns ran on the worker, the second resuming the session');
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows as { kind: string; text: string }[];
  t.true(thread.some((r) => r.text?.includes('and then tidy up')), 'the message is in the thread');
});
