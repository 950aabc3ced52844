import '../helpers/env.js';
import test from 'ava';
import { GATE_ONLY, testServer } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { openSse } from '../helpers/sse.js';
import { startRun } from '../helpers/steer.js';

// GET /api/board: the app's runs board rows (the list row plus triage facts), archived on request,
// with the push stream's cursor; `?runs` sends rows of the same shape.

test('the board lists runs newest first with triage facts, archived ones only on request', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const a = await startRun(s, { goal: 'a', workflow: 'linear', start: false });
  const b = await startRun(s, { goal: 'b', workflow: 'linear', start: false });
  t.is((await s.post(`/api/runs/${a}/archive`, { state: 'Archived' })).status, 200);
  const res = await fetch(`${s.url}/api/board`);
  t.regex(res.headers.get('svc-event-id') ?? '', /^runs:[\w-]+:\d+$/);
  const rows = await res.json() as any[];
  t.deepEqual(rows.map((r) => r.runId), [b]);
  const row = rows[0];
  t.like(row, { runId: b, standing: 'Created', archived: false, resolved: false, workflowName: 'linear' });
  t.regex(row.position, /^v\d+$/);
  t.false(row.canMoveToFront, 'a run not started cannot move to the front');
  t.is(typeof row.queuePriority, 'number');
  const all = (await s.get('/api/board?archived=true')).body as any[];
  t.deepEqual(all.map((r) => r.runId), [b, a]);
  t.true(all[1].archived);
  const bad = await s.get('/api/board?archived=yes');
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /archived/);
});

test('the runs stream sends board rows', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const res = await fetch(`${s.url}/api/board`);
  const feed = await openSse(`${s.url}/api/events?runs`, { 'last-event-id': res.headers.get('svc-event-id')! });
  t.teardown(() => feed.close());
  const id = await startRun(s, { goal: 'x', workflow: 'linear', start: false });
  const frames = await feed.until((f) => f.some((x) => x.event === 'runs'));
  const row = frames.find((f) => f.event === 'runs')!.data.rows[0];
  const fromBoard = ((await s.get('/api/board')).body as any[])[0];
  t.is(row.runId, id);
  t.deepEqual(row, fromBoard);
});

// issue 32: every page read the whole board to count what needs the person; `needs=true` gives those rows only
test('needs=true lists only the runs that need a person', async (t) => {
  const s = await testServer({ workflows: { gate: GATE_ONLY } });
  t.teardown(() => s.close());
  const idle = await startRun(s, { goal: 'idle', workflow: 'linear', start: false });
  const gated = await startRun(s, { goal: 'gated', workflow: 'gate' });
  await eventually(() => s.get(`/api/runs/${gated}/detail`), (r) => r.body.phase === 'AtGate', 60_000);
  const needs = (await s.get('/api/board?needs=true')).body as any[];
  t.deepEqual(needs.map((r) => r.runId), [gated]);
  t.deepEqual(((await s.get('/api/board?needs=false')).body as any[]).map((r) => r.runId).sort(), [gated, idle].sort());
  const bad = await s.get('/api/board?needs=1');
  t.is(bad.status, 400);
  t.is(bad.body.detail, 'needs is true or false');
});
