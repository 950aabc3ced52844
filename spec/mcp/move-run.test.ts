import test from 'ava';
import { mcpServer } from './helpers/real.js';
import { call, json, textOf } from './helpers/call.js';

// move_run over the real MCP endpoint does what POST /api/runs/{id}/move does (docs/workers.md,
// "Move to…"): one RunMovedTo in the 'placement' journal, by the MCP client; the run's next step
// goes there; refusals (an unknown or revoked worker, an ended run) are tool errors with the
// same text as the HTTP detail, and record nothing.

test('move_run moves a run to a worker and back here; refusals are tool errors that record nothing', async (t) => {
  process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
  const srv = await mcpServer();
  t.teardown(() => srv.close());
  const client = await srv.connect('claude-code');
  t.teardown(() => client.close());
  const made = await srv.post('/api/workers/tokens', { name: 'desk' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const workerId = made.body.worker.workerId as string;
  const run = (await srv.post('/api/runs', { project: srv.projectId, goal: 'move me', workflow: 'two', start: false })).body.runId as string;
  const where = () => srv.service.workers.remote(srv.service.core.runs.get(run)!, 'claude')?.workerId ?? 'here';
  const moves = () => srv.service.core.journal.read('placement').map((e) => e.data as { runId: string; to: string; by: { kind: string; name?: string } });

  const moved = await call(client, 'move_run', { run, to: workerId });
  t.falsy(moved.isError, textOf(moved));
  t.like(json<{ to: string; run: { id: string } }>(moved), { to: workerId, run: { id: run } });
  t.is(where(), workerId);
  t.like(moves()[0], { runId: run, to: workerId, by: { kind: 'agent' } });
  t.deepEqual(json<{ run: { machine: unknown } }>(await call(client, 'get_run', { run })).run.machine, { current: { workerId: null, name: 'this machine' }, next: { workerId, name: 'desk', why: 'moved by agent claude-code' }, steps: [] });

  // a repeat records nothing; back here
  t.falsy((await call(client, 'move_run', { run, to: workerId })).isError);
  t.is(moves().length, 1);
  t.falsy((await call(client, 'move_run', { run, to: 'here' })).isError);
  t.is(where(), 'here');
  t.is(moves().length, 2);

  // refusals, each recording nothing: a worker the hub does not know, a revoked one, an ended run, an unknown run
  const refused = async (args: Record<string, unknown>, text: RegExp) => {
    const r = await call(client, 'move_run', args);
    t.true(r.isError, JSON.stringify(args));
    t.regex(textOf(r), text);
  };
  await refused({ run, to: 'wnope' }, /not a worker of this hub/);
  t.is((await srv.post(`/api/workers/${workerId}/revoke`)).status, 200);
  await refused({ run, to: workerId }, /is revoked/);
  await refused({ run: await srv.ended(), to: 'here' }, /has ended/);
  await refused({ run: 'r-none', to: 'here' }, /unknown run/);
  t.is(moves().length, 2);
});
