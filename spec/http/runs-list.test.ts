import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { controlApplied } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startRun } from '../helpers/steer.js';

// GET /api/runs keeps its shape and is cheap to read again: a weak ETag naming the list's version,
// 304 when If-None-Match has it, a new ETag once the list changes, gzip only when the client takes
// it. Raw node:http here: fetch would ask for gzip and unzip on its own. Serial: each test changes
// the list the others read.

const test = anyTest as TestFn<{ s: TestServer }>;

test.before(async (t) => {
  t.context.s = await testServer();
  // enough runs that the list is over the gzip threshold (1 KiB)
  for (let i = 0; i < 6; i++) await startRun(t.context.s, { goal: `listed run ${i}`, workflow: 'linear', start: false });
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

interface Raw { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

const raw = (s: TestServer, headers: Record<string, string> = {}): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const req = request(`${s.url}/api/runs`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const ids = (body: Buffer): string[] => (JSON.parse(body.toString()) as { runId: string }[]).map((r) => r.runId);

test.serial('the list carries a weak ETag, no-cache and Vary: Accept-Encoding, and is still an array of runs', async (t) => {
  const { s } = t.context;
  const r = await raw(s);
  t.is(r.status, 200);
  t.regex(String(r.headers['etag']), /^W\/"runs-[\w-]+"$/);
  t.is(r.headers['cache-control'], 'no-cache');
  t.regex(String(r.headers['vary']), /Accept-Encoding/i);
  t.regex(String(r.headers['content-type']), /^application\/json/);
  t.is(r.headers['content-encoding'], undefined);
  const list = JSON.parse(r.body.toString());
  t.true(Array.isArray(list));
  t.true(list.length >= 6);
  t.like(list[0], { standing: 'Created', workflowName: 'linear' });
});

test.serial('If-None-Match with the current ETag is 304 with no body; a stale or foreign one gets the list', async (t) => {
  const { s } = t.context;
  const first = await raw(s);
  const etag = String(first.headers['etag']);
  const again = await raw(s, { 'If-None-Match': etag });
  t.is(again.status, 304);
  t.is(again.body.length, 0);
  t.is(again.headers['etag'], etag);
  const among = await raw(s, { 'If-None-Match': `W/"runs-other-1", ${etag}` });
  t.is(among.status, 304);
  const star = await raw(s, { 'If-None-Match': '*' });
  t.is(star.status, 304);
  // fetch adds Cache-Control: no-cache to a request with If-None-Match; the server still compares
  const viaFetch = await fetch(`${s.url}/api/runs`, { headers: { 'If-None-Match': etag } });
  t.is(viaFetch.status, 304);
  const foreign = await raw(s, { 'If-None-Match': 'W/"runs-elsewhere-0"' });
  t.is(foreign.status, 200);
  t.deepEqual(ids(foreign.body), ids(first.body));
});

test.serial('a new run changes the ETag, and the old one then gets the new list', async (t) => {
  const { s } = t.context;
  const before = await raw(s);
  const etag = String(before.headers['etag']);
  const runId = await startRun(s, { goal: 'one more', workflow: 'linear', start: false });
  const after = await raw(s, { 'If-None-Match': etag });
  t.is(after.status, 200);
  t.not(after.headers['etag'], etag);
  t.is(ids(after.body)[0], runId);
  t.is((await raw(s, { 'If-None-Match': String(after.headers['etag']) })).status, 304);
});

test.serial('a change to a listed run (its standing) changes the ETag too', async (t) => {
  const { s } = t.context;
  const runId = await startRun(s, { goal: 'to abort', workflow: 'linear', start: false });
  const etag = String((await raw(s)).headers['etag']);
  t.is((await controlApplied(s, runId, 'Abort')).body.outcome, 'Applied');
  const after = await raw(s, { 'If-None-Match': etag });
  t.is(after.status, 200);
  t.not(after.headers['etag'], etag);
  t.is((JSON.parse(after.body.toString()) as { runId: string; standing: string }[]).find((r) => r.runId === runId)?.standing, 'Aborted');
});

test.serial('gzip when the client accepts it, the same list unzipped; identity when it does not', async (t) => {
  const { s } = t.context;
  const plain = await raw(s, { 'Accept-Encoding': 'identity' });
  t.is(plain.headers['content-encoding'], undefined);
  const zipped = await raw(s, { 'Accept-Encoding': 'gzip, deflate' });
  t.is(zipped.status, 200);
  t.is(zipped.headers['content-encoding'], 'gzip');
  t.is(zipped.headers['etag'], plain.headers['etag']);
  t.true(zipped.body.length < plain.body.length);
  t.deepEqual(gunzipSync(zipped.body), plain.body);
  const refused = await raw(s, { 'Accept-Encoding': 'gzip;q=0, identity' });
  t.is(refused.headers['content-encoding'], undefined);
  t.deepEqual(refused.body, plain.body);
  t.is((await raw(s, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(plain.headers['etag']) })).status, 304);
});
