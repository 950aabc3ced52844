import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/env.js';
import { untilEnded } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { history, startRun } from '../helpers/steer.js';

// Thread, history and log pages: defaults, bounds, oldest first, and a walk back with `before`
// that visits everything exactly once. Export replays the history into a private file.

const MESSAGES = 60;
const WRITES = 60;

const test = anyTest as TestFn<{ s: TestServer; chatty: string; noisy: string }>;

test.before(async (t) => {
  const s = await testServer();
  // A run recorded without starting, then messaged: 1 + 60 events, each one a thread row.
  const chatty = await startRun(s, { goal: 'talk to me', workflow: 'linear', start: false });
  for (let i = 1; i <= MESSAGES; i++) {
    const r = await s.post(`/api/runs/${chatty}/messages`, { text: `note ${i}`, delivery: 'Hold' });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  }
  // A run whose agent logs a line per file it writes: more log lines than one default page.
  const goal = Array.from({ length: WRITES }, (_, i) => `[write:f${i}.txt=${i}]`).join(' ');
  const noisy = await startRun(s, { goal, workflow: 'linear' });
  await untilEnded(s, noisy);
  t.context = { s, chatty, noisy };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

type Kind = 'thread' | 'history' | 'log';
const itemsOf = (kind: Kind, body: any): any[] => (kind === 'thread' ? body.rows : kind === 'history' ? body.events : body.lines);
const keyOf = (kind: Kind, item: any): number => (kind === 'thread' ? Number(item.id) : kind === 'history' ? item.seq : item.n);

const page = async (s: TestServer, runId: string, kind: Kind, query = '') => {
  const r = await s.get(`/api/runs/${runId}/${kind}${query}`);
  if (r.status !== 200) throw new Error(`${kind}${query}: ${r.status} ${JSON.stringify(r.body)}`);
  return { items: itemsOf(kind, r.body), before: r.body.before as string | number | null };
};

/** Walks from the newest page back to the start; pages come back in the order visited. */
const walk = async (s: TestServer, runId: string, kind: Kind, pageSize: number) => {
  const pages: any[][] = [];
  let before: string | number | null = null;
  do {
    const p = await page(s, runId, kind, `?pageSize=${pageSize}${before !== null ? `&before=${before}` : ''}`);
    pages.push(p.items);
    before = p.before;
    if (pages.length > 500) throw new Error('the walk does not end');
  } while (before !== null);
  return pages;
};

const logCount = async (s: TestServer, runId: string) => (await page(s, runId, 'log', '?pageSize=200')).items.length;

test('defaults: thread 10 rows, history 25 events, log 50 lines, each the newest, oldest first', async (t) => {
  const { s, chatty, noisy } = t.context;
  const thread = await page(s, chatty, 'thread');
  t.is(thread.items.length, 10);
  t.is(thread.items[9].text, `note ${MESSAGES}`);
  t.is(thread.items[0].text, `note ${MESSAGES - 9}`);
  t.is(typeof thread.before, 'string');
  const events = await page(s, chatty, 'history');
  t.is(events.items.length, 25);
  t.deepEqual(events.items.map((e) => e.seq), Array.from({ length: 25 }, (_, i) => MESSAGES + 1 - 24 + i));
  t.is(events.before, MESSAGES + 1 - 24);
  const total = await eventually(() => logCount(s, noisy), (n) => n > 50);
  const lines = await page(s, noisy, 'log');
  t.is(lines.items.length, 50);
  t.deepEqual(lines.items.map((l) => l.n), Array.from({ length: 50 }, (_, i) => total - 49 + i));
  t.true(lines.items.every((l) => typeof l.text === 'string' && ['service', 'agent'].includes(l.source)));
});

test('pageSize is 1 to 200 on every page kind', async (t) => {
  const { s, chatty, noisy } = t.context;
  for (const kind of ['thread', 'history', 'log'] as const) {
    const runId = kind === 'log' ? noisy : chatty;
    t.is((await page(s, runId, kind, '?pageSize=1')).items.length, 1, kind);
    t.true((await page(s, runId, kind, '?pageSize=200')).items.length > 50, kind);
    for (const bad of ['0', '201', 'ten']) {
      const r = await s.get(`/api/runs/${runId}/${kind}?pageSize=${bad}`);
      t.is(r.status, 400, `${kind} pageSize=${bad}`);
      t.regex(r.body.detail, /pageSize/);
    }
  }
});

for (const kind of ['thread', 'history', 'log'] as const) {
  test(`walking the ${kind} back with before visits every item exactly once, oldest first within each page`, async (t) => {
    const { s, chatty, noisy } = t.context;
    const runId = kind === 'log' ? noisy : chatty;
    const all = (await page(s, runId, kind, '?pageSize=200')).items.map((i) => keyOf(kind, i));
    const pages = await walk(s, runId, kind, 7);
    for (const p of pages) {
      const keys = p.map((i) => keyOf(kind, i));
      t.deepEqual(keys, [...keys].sort((a, b) => a - b), 'oldest first within a page');
      t.true(p.length <= 7 && p.length > 0);
    }
    const visited = pages.reverse().flat().map((i) => keyOf(kind, i));
    t.is(new Set(visited).size, visited.length, 'no duplicates');
    t.deepEqual(visited, all);
    if (kind === 'history') t.deepEqual(visited, Array.from({ length: MESSAGES + 1 }, (_, i) => i + 1));
    if (kind === 'thread') t.is(visited.length, MESSAGES + 1);
    if (kind === 'log') t.deepEqual(visited, Array.from({ length: visited.length }, (_, i) => i + 1));
  });
}

test('the thread of a run with events that make no row walks back through the gaps, each row once', async (t) => {
  const { s, noisy } = t.context;
  const all = (await page(s, noisy, 'thread', '?pageSize=200')).items;
  const events = await history(s, noisy);
  t.true(all.length < events.length, 'some events make no row');
  t.is(all[0].kind, 'goal');
  for (const size of [1, 2, 3]) {
    const walked = (await walk(s, noisy, 'thread', size)).reverse().flat();
    t.deepEqual(walked, all, `pageSize ${size}`);
  }
});

test('the history walked back is the history read whole: same events, same order', async (t) => {
  const { s, noisy } = t.context;
  const whole = await history(s, noisy);
  const walked = (await walk(s, noisy, 'history', 3)).reverse().flat();
  t.deepEqual(walked, whole);
  t.is(whole[0].type, 'RunCreated');
  t.is(whole[whole.length - 1].type, 'RunSucceeded');
});

test('export writes <SVC_HOME>/exports/<runId>.jsonl, owner-only, whose lines replay the history; a second export replaces the first', async (t) => {
  const { s } = t.context;
  // A run of its own: the other tests read chatty's pages while this one adds to its run.
  const chatty = await startRun(s, { goal: 'export me', workflow: 'linear', start: false });
  for (const text of ['a', 'b', 'c']) t.is((await s.post(`/api/runs/${chatty}/messages`, { text, delivery: 'Hold' })).status, 200);
  const r = await s.post(`/api/runs/${chatty}/export`, {});
  t.is(r.status, 200, JSON.stringify(r.body));
  const path = join(s.home, 'exports', `${chatty}.jsonl`);
  t.is(r.body.path, path);
  t.is(statSync(path).mode & 0o777, 0o600);
  t.is(statSync(join(s.home, 'exports')).mode & 0o777, 0o700);
  t.is(r.body.size, statSync(path).size);
  const read = () => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const first = read();
  t.is(first[0].kind, 'run');
  t.is(first[0].run.id, chatty);
  const events = first.filter((l) => l.kind === 'event').map(({ kind: _k, ...e }) => e);
  t.deepEqual(events, await history(s, chatty));
  t.is(events.length, 4);

  t.is((await s.post(`/api/runs/${chatty}/messages`, { text: 'one more', delivery: 'Hold' })).status, 200);
  const again = await s.post(`/api/runs/${chatty}/export`, {});
  t.is(again.body.path, path);
  const second = read();
  const replayed = second.filter((l) => l.kind === 'event');
  t.is(replayed.length, events.length + 1);
  t.is(replayed[replayed.length - 1].data.text, 'one more');
  t.is(second.filter((l) => l.kind === 'run').length, 1);
  t.deepEqual(readdirSync(join(s.home, 'exports')).filter((f) => f.includes(chatty)), [`${chatty}.jsonl`]);
  t.is(statSync(path).mode & 0o777, 0o600);
});

test('thread rows name who spoke: the svc-setting-source header names the person', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'who said that', workflow: 'linear', start: false });
  const r = await s.post(`/api/runs/${runId}/messages`, { text: 'it was me', delivery: 'Hold' }, { 'svc-setting-source': 'alice' });
  t.is(r.status, 200);
  t.is((await s.post(`/api/runs/${runId}/goal`, { goal: 'who said what' })).status, 200);
  const rows = (await page(s, runId, 'thread')).items;
  t.like(rows[0], { kind: 'goal', author: 'person', text: 'who said that' });
  t.like(rows[1], { kind: 'message', author: 'person', authorName: 'alice', text: 'it was me' });
  t.like(rows[2], { kind: 'goal-revised', author: 'person', text: 'who said what' });
  t.false('authorName' in rows[2]);
  t.is(rows.length, 3);
});

test('an export that cannot be written (the exports path is a file) is refused with the path and the cause; the run is untouched', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'export me', workflow: 'linear', start: false });
  const before = await history(s, runId);
  writeFileSync(join(s.home, 'exports'), 'not a folder');
  const r = await s.post(`/api/runs/${runId}/export`, {});
  t.is(r.status, 409);
  t.regex(r.body.detail, /could not write the export under .*exports: E[A-Z]+/);
  t.is((await s.get(`/api/runs/${runId}`)).status, 200);
  t.deepEqual(await history(s, runId), before);
});
