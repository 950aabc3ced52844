// Activity over HTTP and the push stream, from a run on the real claude CLI: the rows (kinds,
// titles relative to the worktree, statuses), outputs cut in pages and whole by row, a row that
// goes from running to ok on a live stream, a resume that brings back what changed, bad input.
import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ACTIVE, FLAG_AGAIN, startActivityRun, useRealClaude, WAITING, WAITING_AGAIN } from '../helpers/activity-run.js';
import { openSse } from '../helpers/sse.js';
import { testServer } from '../helpers/server.js';
import { untilStanding } from '../helpers/steer.js';

const rowsIn = (frames: { event: string; data: any }[]) => frames.filter((f) => f.event === 'log').flatMap((f) => f.data.activity ?? []);

test('a claude turn\'s tool calls: rows by HTTP, live updates on the push stream, the whole output by row', async (t) => {
  t.timeout(200_000);
  useRealClaude();
  const s = await testServer({ workflows: { active: ACTIVE } });
  t.teardown(() => s.close());
  const run = await startActivityRun(s);
  t.teardown(() => run.model.close());
  const live = await openSse(`${s.url}/api/events?run=${run.runId}&log`);
  t.teardown(() => live.close());

  // The waiting command is running: the stream shows it so, before it ends.
  const running = await live.until((f) => rowsIn(f).some((r) => r.title === WAITING && r.status === 'running'), 120_000);
  const waitingRow = rowsIn(running).find((r) => r.title === WAITING)!;
  const cut = live.lastId()!;
  t.is((await s.get(`/api/runs/${run.runId}/activity/${waitingRow.id}`)).body.row.status, 'running', 'the route reads a row not yet committed');
  run.release();
  await live.until((f) => rowsIn(f).some((r) => r.id === waitingRow.id && r.status === 'ok'), 60_000);
  run.release(FLAG_AGAIN);
  await untilStanding(s, run.runId, 'Succeeded', 120_000);

  const page = (await s.get(`/api/runs/${run.runId}/activity?pageSize=50`)).body;
  t.is(page.before, null);
  t.deepEqual(page.rows.map((r: any) => [r.kind, r.title, r.status]), [
    ['read', 'README.md', 'ok'],
    ['write', 'notes/todo.md', 'ok'],
    ['command', 'seq 1 3000', 'ok'],
    ['command', WAITING, 'ok'],
    ['command', 'ls does-not-exist', 'error'],
    ['command', WAITING_AGAIN, 'ok'],
    ['mcp', 'svc.report_outcome', 'ok'],
  ]);
  t.is(page.rows[1].path, 'notes/todo.md', 'a write names its file relative to the worktree');
  t.is(page.rows[4].exitCode, 2);
  const seq = page.rows[2];
  t.true(seq.outputChars > 10_000, 'the whole length is told');
  t.true(seq.output.length <= 2001 && seq.output.endsWith('…'), 'a page carries a preview of a long output');
  const whole = (await s.get(`/api/runs/${run.runId}/activity/${seq.id}`)).body.row;
  t.is(whole.output.length, seq.outputChars);
  t.true(whole.output.includes('\n3000'));
  t.true(page.rows.every((r: any) => r.stepId === page.rows[0].stepId && r.startedAt <= r.endedAt));

  // paging back: the page before row 3 holds rows 1 and 2
  const earlier = (await s.get(`/api/runs/${run.runId}/activity?pageSize=2&before=3`)).body;
  t.deepEqual(earlier.rows.map((r: any) => r.id), [1, 2]);
  t.is(earlier.before, null);
  t.deepEqual((await s.get(`/api/runs/${run.runId}/activity?pageSize=2`)).body.before, 6);

  // A stream that resumes from before the wait ended gets the rows that changed since, ended.
  const resumed = await openSse(`${s.url}/api/events?run=${run.runId}&log`, { 'last-event-id': cut });
  t.teardown(() => resumed.close());
  const again = rowsIn(await resumed.until((f) => rowsIn(f).some((r) => r.title === 'ls does-not-exist'), 20_000));
  t.is(again.find((r) => r.id === waitingRow.id)?.status, 'ok');
  t.false(again.some((r) => r.id < waitingRow.id), 'rows that did not change after the cut are not sent again');
  t.false(JSON.stringify(again).includes(run.dir), 'no absolute worktree path in the rows');

  // an export carries the rows whole
  const exported = (await s.post(`/api/runs/${run.runId}/export`, {})).body;
  const kept = readFileSync(exported.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.kind === 'activity').map((l) => l.row);
  t.deepEqual(kept.map((r) => r.title), page.rows.map((r: any) => r.title));
  t.is(kept[2].output.length, seq.outputChars);
});

test('activity routes: bad input is a 4xx with a detail', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'g', workflow: 'linear', start: false })).body.runId as string;
  const cases: [string, number, RegExp][] = [
    ['/api/runs/nope/activity', 404, /nope/],
    ['/api/runs/nope/activity/1', 404, /nope/],
    [`/api/runs/${runId}/activity/1`, 404, /activity row/],
    [`/api/runs/${runId}/activity/0`, 400, /row id/],
    [`/api/runs/${runId}/activity/abc`, 400, /row id/],
    [`/api/runs/${runId}/activity/1.5`, 400, /row id/],
    [`/api/runs/${runId}/activity?pageSize=0`, 400, /pageSize/],
    [`/api/runs/${runId}/activity?pageSize=201`, 400, /pageSize/],
    [`/api/runs/${runId}/activity?before=x`, 400, /before/],
  ];
  for (const [path, status, detail] of cases) {
    const r = await s.get(path);
    t.is(r.status, status, path);
    t.regex(String(r.body.detail), detail, path);
  }
  t.deepEqual((await s.get(`/api/runs/${runId}/activity`)).body, { rows: [], before: null });
});
