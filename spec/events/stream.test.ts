import '../helpers/env.js';
import test from 'ava';
import { untilEnded } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { openSse, type SseFrame } from '../helpers/sse.js';
import { history, startRun } from '../helpers/steer.js';

// GET /api/events against a real server: a resume with Last-Event-ID after a dropped connection
// delivers exactly what was missed, each scope carries only its own events, and a bad scope is a 400.

const events = (s: TestServer, query: string, lastId?: string) => openSse(`${s.url}/api/events?${query}`, lastId ? { 'last-event-id': lastId } : {});

const hold = async (s: TestServer, runId: string, text: string) => {
  const r = await s.post(`/api/runs/${runId}/messages`, { text, delivery: 'Hold' });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

const seqsOf = (frames: SseFrame[]) => frames.filter((f) => f.event === 'run').flatMap((f) => f.data.history.map((e: any) => e.seq as number));
/** the journal seq and log line a frame's id says the client holds */
const cursorOf = (f: SseFrame) => { const p = f.id!.split(':'); return { seq: Number(p.at(-2)), line: Number(p.at(-1)) }; };
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('a run scope resumed after a dropped connection delivers every missed event once, in order', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'talk', workflow: 'linear', start: false });
  const first = await events(s, `run=${runId}`);
  t.is(first.status, 200);
  const opened = await first.until((f) => f.length >= 1);
  t.is(opened[0]!.event, 'run');
  t.is(opened[0]!.data.run.id, runId);
  t.deepEqual(opened[0]!.data.history, [], 'a fresh stream starts from the run as it is');
  const startSeq = cursorOf(opened[0]!).seq;
  await hold(s, runId, 'one');
  await hold(s, runId, 'two');
  await first.until((f) => seqsOf(f).length >= 2);
  first.close();
  const lastId = first.lastId()!;
  t.regex(lastId, new RegExp(`^run:${runId}:\\d+:\\d+$`));
  // While nobody listens, the run goes on.
  for (const text of ['three', 'four', 'five']) await hold(s, runId, text);
  const head = (await history(s, runId)).at(-1).seq as number;
  const second = await events(s, `run=${runId}`, lastId);
  t.teardown(() => second.close());
  await second.until((f) => seqsOf(f).at(-1) === head);
  await hold(s, runId, 'six');
  await second.until((f) => seqsOf(f).at(-1) === head + 1);
  const seen = [...seqsOf(first.frames), ...seqsOf(second.frames)];
  t.deepEqual(seen, range(startSeq + 1, head + 1), 'nothing lost, nothing repeated');
  const texts = [...first.frames, ...second.frames].filter((f) => f.event === 'run').flatMap((f) => f.data.thread.map((r: any) => r.text));
  t.deepEqual(texts.filter((x: string) => /one|two|three|four|five|six/.test(x)).length, 6);
  t.is(second.frames.filter((f) => f.event === 'reset').length, 0);
});

test('log lines resume exactly too, and an id from another run is answered with reset', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const goal = ['[sleep:300]', ...Array.from({ length: 30 }, (_, i) => `[write:f${i}.txt=${i}]`)].join(' ');
  const runId = await startRun(s, { goal, workflow: 'linear' });
  const first = await events(s, `run=${runId}&log`);
  await first.until((f) => f.length >= 1);
  const from = cursorOf(first.frames[0]!);
  const lines = (frames: SseFrame[]) => frames.filter((f) => f.event === 'log').flatMap((f) => f.data.lines.map((l: any) => l.n as number));
  await first.until((f) => lines(f).length >= 3);
  first.close();
  await untilEnded(s, runId);
  const logHead = (await s.get(`/api/runs/${runId}/log?pageSize=1`)).body.lines.at(-1).n as number;
  const second = await events(s, `run=${runId}&log`, first.lastId());
  t.teardown(() => second.close());
  await second.until((f) => lines(f).at(-1) === logHead);
  const seen = [...lines(first.frames), ...lines(second.frames)];
  t.deepEqual(seen, range(from.line + 1, logHead));
  const head = (await history(s, runId)).at(-1).seq as number;
  t.deepEqual(seqsOf([...first.frames, ...second.frames]), range(from.seq + 1, head));

  const other = await startRun(s, { goal: 'x', workflow: 'linear', start: false });
  const wrong = await events(s, `run=${other}`, first.lastId());
  t.teardown(() => wrong.close());
  const got = await wrong.until((f) => f.length >= 2);
  t.is(got[0]!.event, 'reset');
  t.is(got[1]!.event, 'run');
  t.is(got[1]!.data.run.id, other);
});

test('the runs scope follows GET /api/runs from its cursor and resumes without repeats', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const a = await startRun(s, { goal: 'a', workflow: 'linear', start: false });
  const list = await fetch(`${s.url}/api/runs`);
  const cursor = list.headers.get('svc-event-id')!;
  t.regex(cursor, /^runs:[\w-]+:\d+$/);
  const feed = await events(s, 'runs', cursor);
  const rows = (frames: SseFrame[]) => frames.filter((f) => f.event === 'runs').flatMap((f) => f.data.rows);
  const b = await startRun(s, { goal: 'b', workflow: 'linear', start: false });
  await feed.until((f) => rows(f).some((r: any) => r.runId === b));
  t.false(rows(feed.frames).some((r: any) => r.runId === a), 'nothing from before the cursor');
  feed.close();
  const c = await startRun(s, { goal: 'c', workflow: 'linear', start: false });
  const archived = await s.post(`/api/runs/${a}/archive`, { state: 'Archived' });
  t.is(archived.status, 200, JSON.stringify(archived.body));
  const again = await events(s, 'runs', feed.lastId());
  t.teardown(() => again.close());
  await again.until((f) => rows(f).some((r: any) => r.runId === a));
  const resumed = rows(again.frames);
  t.deepEqual(resumed.map((r: any) => r.runId).sort(), [a, c].sort(), 'only what changed while away');
  t.true(resumed.find((r: any) => r.runId === a).archived);
  t.true(again.frames.every((f) => f.event === 'runs'));

  const fresh = await events(s, 'runs', 'runs:another-process:3');
  t.teardown(() => fresh.close());
  const got = await fresh.until((f) => f.length >= 2);
  t.deepEqual(got.map((f) => f.event), ['reset', 'ready']);
  t.is(got[1]!.id, (await fetch(`${s.url}/api/runs`)).headers.get('svc-event-id') ?? undefined);
});

test('each scope receives only its own events', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const mine = await startRun(s, { goal: 'mine', workflow: 'linear', start: false });
  const other = await startRun(s, { goal: 'other', workflow: 'linear', start: false });
  // The supervisors module says which journal stream is a supervisor's chat.
  s.service.events.chats = (id) => (id === 'sup1' ? 'supervisor-chat:sup1' : id === 'sup2' ? 'supervisor-chat:sup2' : undefined);
  const run = await events(s, `run=${mine}`);
  const sup = await events(s, 'supervisor=sup1');
  t.teardown(() => { run.close(); sup.close(); });
  await run.until((f) => f.length >= 1);
  await sup.until((f) => f.length >= 1);
  t.is(sup.frames[0]!.event, 'ready');
  await hold(s, other, 'not for you');
  await hold(s, mine, 'for you');
  const journal = s.service.core.journal;
  journal.append('supervisor-chat:sup2', 0, [{ type: 'ChatSaid', data: { text: 'to sup2' } }], new Date().toISOString());
  journal.append('supervisor-chat:sup1', 0, [{ type: 'ChatSaid', data: { text: 'to sup1' } }], new Date().toISOString());
  await run.until((f) => f.length >= 2);
  await sup.until((f) => f.length >= 2);
  // one more of each, so anything misdelivered in between would have arrived before it
  await hold(s, mine, 'last');
  journal.append('supervisor-chat:sup1', 1, [{ type: 'ChatSaid', data: { text: 'last' } }], new Date().toISOString());
  await run.until((f) => f.length >= 3);
  await sup.until((f) => f.length >= 3);
  t.true(run.frames.every((f) => f.event === 'run' && f.data.run.id === mine));
  t.deepEqual(run.frames.slice(1).flatMap((f) => f.data.thread.map((r: any) => r.text)).filter((x: string) => /you|last/.test(x)).length, 2);
  t.deepEqual(sup.frames.slice(1).flatMap((f) => f.data.entries.map((e: any) => e.data.text)), ['to sup1', 'last']);
  t.deepEqual(sup.frames.slice(1).map((f) => f.id), ['supervisor:sup1:1', 'supervisor:sup1:2']);
});

test('an idle stream sends keep-alive comments and nothing else', async (t) => {
  const s = await testServer({ keepAliveMs: 50 });
  t.teardown(() => s.close());
  const feed = await events(s, 'runs');
  t.teardown(() => feed.close());
  await feed.until(() => feed.comments.filter((c) => c === 'keep-alive').length >= 2);
  t.deepEqual(feed.frames.map((f) => f.event), ['ready']);
});

test('a bad scope is a 400 with a detail, an unknown run or supervisor a 404', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  for (const q of ['', 'run', 'run=', 'runs&run=r1', 'supervisor=', 'nothing=1']) {
    const r = await s.get(`/api/events?${q}`);
    t.is(r.status, 400, q);
    t.regex(r.body.detail, /scope|needs an id/, q);
  }
  for (const q of ['run=r-none', 'supervisor=nobody']) {
    const r = await s.get(`/api/events?${q}`);
    t.is(r.status, 404, q);
    t.regex(r.body.detail, /no (run|supervisor)/);
  }
  const still = await events(s, 'runs');
  t.teardown(() => still.close());
  t.is(still.status, 200, 'the server goes on');
});
