import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { testServer, type TestServer } from '../helpers/server.js';
import { isRefusal } from '../helpers/http-kit.js';
import { BODY_ROUTES, filled, nestedText, PROJECT, RUN, withNested, wrongType } from '../helpers/body-routes.js';

// Issue 29, part 4: a JSON value nested 20,000 levels deep in any field of POST /api/runs got a
// 500 (a decoder overflowed its stack). Every route that reads a body answers a value nested too
// deep, and a field of the wrong type, with a 400 naming the field; the server goes on after.

const test = anyTest as TestFn<{ s: TestServer; run: string }>;

test.before(async (t) => {
  const s = await testServer();
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'kept', workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  t.context = { s, run: r.body.runId };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const DEEP = 20_000;
const at = (path: string, c: { s: TestServer; run: string }) => path.replace(RUN, c.run).replace(PROJECT, c.s.projectId);

BODY_ROUTES.forEach(([method, path, body], i) => {
  const fields = Object.keys(body);
  test.serial(`${i + 1}. ${method} ${path}: a body nested ${DEEP} deep, and each field nested so, is a 400 naming it`, async (t) => {
    const { s, run } = t.context;
    const whole = await s.send(method, at(path, t.context), nestedText(DEEP));
    t.is(whole.status, 400, JSON.stringify(whole.body));
    t.is(whole.body.detail, 'the body nests deeper than 64 levels of arrays and objects');
    const valid = filled(body, s.projectId, run) as Record<string, unknown>;
    for (const field of fields) {
      const r = await s.send(method, at(path, t.context), withNested(valid, field, DEEP));
      t.is(r.status, 400, `${field}: ${JSON.stringify(r.body)}`);
      t.regex(String(r.body.detail), new RegExp(`^${field} nests deeper than 64 levels`), field);
    }
  });
  if (fields.length === 0) return;
  test.serial(`${i + 1}. ${method} ${path}: each field of the wrong type is a 400 naming it`, async (t) => {
    const { s, run } = t.context;
    const valid = filled(body, s.projectId, run) as Record<string, unknown>;
    for (const field of fields) {
      const r = await s.send(method, at(path, t.context), JSON.stringify({ ...valid, [field]: wrongType(valid[field]) }));
      t.is(r.status, 400, `${field}: ${JSON.stringify(r.body)}`);
      t.true(isRefusal(r));
      t.regex(String(r.body.detail), new RegExp(field), field);
    }
  });
});

test.serial('a value nested just within the limit is decoded as any other: its refusal names what the field wants', async (t) => {
  const { s } = t.context;
  const r = await s.send('POST', '/api/runs', withNested({ project: s.projectId, goal: 'g' }, 'goal', 63));
  t.is(r.status, 400);
  t.regex(r.body.detail, /^goal: must be/);
});

test.serial('after all of that the server still answers, and the run it held is as it was', async (t) => {
  const { s, run } = t.context;
  t.is((await s.get('/api/health')).status, 200);
  const d = (await s.get(`/api/runs/${run}/detail`)).body;
  t.is(d.goal, 'kept');
  t.is(d.standing, 'Created');
  t.is((await s.get('/api/runs')).body.length, 1);
});
