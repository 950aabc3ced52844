import '../helpers/env.js';
import test from 'ava';
import { testServer } from '../helpers/server.js';

// "Move to…" over HTTP (docs/workers.md): a run moved to a worker is dispatched there whatever its
// project's Run on says, and moved back here runs here although the project is pinned to the
// worker; the move is one RunMovedTo in the 'placement' journal; an ended run and a revoked worker
// are refused with a detail.

test('a run moved to a worker goes there; moved back here stays here; refusals for an ended run and a revoked worker', async (t) => {
  process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
  const s = await testServer();
  t.teardown(() => s.close());
  const made = await s.post('/api/workers/tokens', { name: 'desk' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const workerId = made.body.worker.workerId as string;
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'move me', workflow: 'linear', start: false })).body.runId as string;
  const where = () => s.service.workers.remote(s.service.core.runs.get(runId)!, 'claude')?.workerId ?? 'here';
  t.is(where(), 'here', 'the project runs here');

  const moved = await s.post(`/api/runs/${runId}/move`, { to: workerId });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.body.to, workerId);
  t.is(where(), workerId);
  t.is((await s.post(`/api/runs/${runId}/move`, { to: workerId })).status, 200, 'a repeat is no error');
  const events = s.service.core.journal.read('placement');
  t.deepEqual(events.map((e) => [e.type, (e.data as { to: string }).to]), [['RunMovedTo', workerId]], 'the repeat recorded nothing');
  t.like(events[0]!.data, { runId, by: { kind: 'person' } });

  // the project pinned to the worker; the run moved back here: the run's pin wins
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: workerId }))).status, 200);
  t.is((await s.post(`/api/runs/${runId}/move`, { to: 'here' })).status, 200);
  t.is(where(), 'here');
  const other = (await s.post('/api/runs', { project: s.projectId, goal: 'not moved', workflow: 'linear', start: false })).body.runId as string;
  t.is(s.service.workers.remote(s.service.core.runs.get(other)!, 'claude')?.workerId, workerId, 'a run not moved follows its project');

  // refusals: a revoked worker, an ended run
  t.is((await s.post(`/api/workers/${workerId}/revoke`)).status, 200);
  const revoked = await s.post(`/api/runs/${runId}/move`, { to: workerId });
  t.is(revoked.status, 400);
  t.regex(revoked.body.detail, /is revoked/);
  const position = (s.service.getRun(runId) as { right: { position: string } }).right.position;
  t.is((await s.post(`/api/runs/${runId}/control`, { position, action: 'Abort' })).body.outcome, 'Applied');
  const ended = await s.post(`/api/runs/${runId}/move`, { to: 'here' });
  t.true(ended.status >= 400 && ended.status < 500, JSON.stringify(ended));
  t.regex(ended.body.detail, /has ended/);
});
