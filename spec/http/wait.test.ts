import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { sharedJson } from '../../lib/http/shared-json.js';
import { eventually } from '../helpers/env.js';
import { controlApplied, untilEvents } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, startRun, untilStanding } from '../helpers/steer.js';

// GET /api/runs/{id}/wait: long-polls woken by one change all get the same bytes (the answer is
// shared and encoded once), a client that goes away stops waiting, and bad input is a 4xx. Serial:
// the tests count the service's open waits.

const test = anyTest as TestFn<{ s: TestServer }>;

test.before(async (t) => {
  t.context.s = await testServer();
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const running = async (s: TestServer, goal: string): Promise<string> => {
  const runId = await startRun(s, { goal, workflow: 'linear' });
  await untilEvents(s, runId, 'StepStarted');
  await untilStanding(s, runId, 'Running');
  return runId;
};

const WAITERS = 40;

test.serial('long-polls woken by one Pause each answer 200 JSON, byte for byte the same, changed Standing', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'hold on [sleep:20000]');
  const base = s.service.waiting;
  const polls = Array.from({ length: WAITERS }, async () => {
    const r = await fetch(`${s.url}/api/runs/${runId}/wait?timeout=60`);
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  });
  await eventually(() => s.service.waiting, (n) => n === base + WAITERS);
  const paused = await control(s, runId, 'Pause');
  t.is(paused.body.outcome, 'Applied');
  const answers = await Promise.all(polls);
  t.true(answers.every((a) => a.status === 200 && /^application\/json/.test(a.type ?? '')));
  t.is(new Set(answers.map((a) => a.text)).size, 1);
  const body = JSON.parse(answers[0]!.text);
  t.is(body.changed, 'Standing');
  t.like(body.run, { id: runId, standing: 'Paused' });
  await controlApplied(s, runId, 'Abort');
});

test.serial('waiters one append wakes hold the same answer, so it is encoded once', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'hold on [sleep:20000]');
  const waits = [s.service.waitForRun(runId, 60_000), s.service.waitForRun(runId, 60_000)];
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  const [a, b] = await Promise.all(waits);
  if (isLeft(a!) || isLeft(b!)) return t.fail('a wait was refused');
  t.is(a.right, b.right);
  t.is(sharedJson(a.right), sharedJson(b.right));
  t.deepEqual(JSON.parse(sharedJson(a.right).toString()), JSON.parse(JSON.stringify(a.right)));
  await controlApplied(s, runId, 'Abort');
});

test.serial('a long-poll whose client goes away stops waiting; the run is untouched', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'hold on [sleep:20000]');
  const base = s.service.waiting;
  const gone = new AbortController();
  const poll = fetch(`${s.url}/api/runs/${runId}/wait?timeout=60`, { signal: gone.signal }).catch(() => 'aborted');
  await eventually(() => s.service.waiting, (n) => n === base + 1);
  gone.abort();
  t.is(await poll, 'aborted');
  await eventually(() => s.service.waiting, (n) => n === base);
  await untilStanding(s, runId, 'Running');
  await controlApplied(s, runId, 'Abort');
});

test.serial('timeout 0 answers Nothing at once; unknown run 404; a timeout out of range 400, each with detail', async (t) => {
  const { s } = t.context;
  const runId = await running(s, 'hold on [sleep:20000]');
  const now = await s.get(`/api/runs/${runId}/wait?timeout=0`);
  t.is(now.status, 200);
  t.is(now.body.changed, 'Nothing');
  t.is(now.body.run.id, runId);
  const unknown = await s.get('/api/runs/r-nope/wait?timeout=1');
  t.is(unknown.status, 404);
  t.is(typeof unknown.body.detail, 'string');
  const bad = await s.get(`/api/runs/${runId}/wait?timeout=301`);
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /timeout/);
  await controlApplied(s, runId, 'Abort');
});
