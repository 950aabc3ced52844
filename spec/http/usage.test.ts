import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { testServer, type TestServer } from '../helpers/server.js';
import { recordUsage, tokens } from '../helpers/usage.js';

// GET /api/usage and /api/usage.csv on the real server: runs made over HTTP, their turns' usage
// appended to their journals, sums read back per grouping and range; bad queries are 400s.

const test = anyTest as TestFn<{ s: TestServer; a: string; b: string; c: string }>;

const TWO = `digraph two { start [kind=start] work [kind=agent, prompt="{{goal}}"] done [kind=exit] start -> work -> done }`;
// noon UTC: the same calendar day in every time zone from UTC-11 to UTC+11
const D1 = '2026-03-01T12:00:00.000Z';
const D2 = '2026-03-02T12:00:00.000Z';
const D3 = '2026-03-05T12:00:00.000Z';

const newRun = async (s: TestServer, goal: string, workflow: string): Promise<string> => {
  const r = await s.post('/api/runs', { project: s.projectId, goal, title: goal, workflow, start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.runId;
};

test.before(async (t) => {
  const s = await testServer({ workflows: { two: TWO } });
  const a = await newRun(s, 'alpha', 'linear');
  const b = await newRun(s, 'beta, "quoted"', 'two');
  const c = await newRun(s, '=formula', 'two');
  recordUsage(s, a, { at: D1, harness: 'claude', model: 'sonnet', tokens: tokens(1000, 200, 50), cost: { _tag: 'Reported', usd: 0.1 } });
  recordUsage(s, a, { at: D1, harness: 'claude', model: 'sonnet', tokens: tokens(500, 0, 20), cost: { _tag: 'Reported', usd: 0.2 } });
  recordUsage(s, a, { at: D2, harness: 'codex', model: 'gpt-5', tokens: tokens(300, 100, 30), cost: { _tag: 'Priced', usd: 0.05 } });
  recordUsage(s, b, { at: D2, harness: 'opencode', tokens: null, cost: { _tag: 'Unknown', why: 'no price for the model' } });
  recordUsage(s, b, { at: D3, harness: 'claude', model: 'sonnet', tokens: tokens(10, 0, 1), cost: { _tag: 'Reported', usd: 1.25 } });
  recordUsage(s, c, { at: D3, harness: 'opencode', model: 'm', tokens: tokens(1, 2, 3), cost: { _tag: 'Unknown', why: 'not reported' } });
  t.context = { s, a, b, c };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const MARCH = 'from=2026-03-01&to=2026-03-31';
const brief = (rows: any[]) => rows.map((r) => [r.key, r.costUsd, r.unknownTurns, r.turns]);

test('by day: each local day with usage, in order; known costs summed, unknown turns counted apart', async (t) => {
  const r = await t.context.s.get(`/api/usage?${MARCH}&groupBy=day`);
  t.is(r.status, 200);
  t.deepEqual(brief(r.body.rows), [['2026-03-01', 0.3, 0, 2], ['2026-03-02', 0.05, 1, 2], ['2026-03-05', 1.25, 1, 2]]);
  t.deepEqual(r.body.total, { costUsd: 1.6, unknownTurns: 2, turns: 6, tokens: { input: 1811, cachedInput: 302, output: 104 } });
  t.like(r.body, { from: '2026-03-01', to: '2026-03-31', groupBy: 'day' });
  t.deepEqual(r.body.rows[0], { key: '2026-03-01', label: '2026-03-01', costUsd: 0.3, unknownTurns: 0, turns: 2, tokens: { input: 1500, cachedInput: 200, output: 70 } });
});

test('by harness, model, workflow, project and run: most spent first, labels read as names', async (t) => {
  const { s, a, b, c } = t.context;
  const by = async (g: string) => (await s.get(`/api/usage?${MARCH}&groupBy=${g}`)).body.rows;
  t.deepEqual(brief(await by('harness')), [['claude', 1.55, 0, 3], ['codex', 0.05, 0, 1], ['opencode', 0, 2, 2]]);
  t.deepEqual((await by('model')).map((r: any) => [r.key, r.label, r.costUsd, r.unknownTurns]),
    [['sonnet', 'sonnet', 1.55, 0], ['gpt-5', 'gpt-5', 0.05, 0], ['', 'not reported', 0, 1], ['m', 'm', 0, 1]]);
  t.deepEqual(brief(await by('workflow')), [['two', 1.25, 2, 3], ['linear', 0.35, 0, 3]]);
  t.deepEqual((await by('project')).map((r: any) => [r.key, r.label, r.costUsd, r.turns]), [[s.projectId, 'demo', 1.6, 6]]);
  t.deepEqual((await by('run')).map((r: any) => [r.key, r.label, r.costUsd, r.unknownTurns]),
    [[b, 'beta, "quoted"', 1.25, 1], [a, 'alpha', 0.35, 0], [c, '=formula', 0, 1]]);
});

test('split: each day carries its parts by harness or project (the stacked chart), only by day', async (t) => {
  const { s } = t.context;
  const r = await s.get(`/api/usage?${MARCH}&split=harness`);
  t.deepEqual(r.body.rows.map((row: any) => [row.key, brief(row.parts)]), [
    ['2026-03-01', [['claude', 0.3, 0, 2]]],
    ['2026-03-02', [['codex', 0.05, 0, 1], ['opencode', 0, 1, 1]]],
    ['2026-03-05', [['claude', 1.25, 0, 1], ['opencode', 0, 1, 1]]],
  ]);
  const p = await s.get(`/api/usage?${MARCH}&split=project`);
  t.deepEqual(p.body.rows[0].parts.map((x: any) => x.label), ['demo']);
  t.false('parts' in (await s.get(`/api/usage?${MARCH}`)).body.rows[0]);
});

test('limit: the first rows only (the top runs), the total still of them all', async (t) => {
  const { s, b } = t.context;
  const r = await s.get(`/api/usage?${MARCH}&groupBy=run&limit=1`);
  t.deepEqual(brief(r.body.rows), [[b, 1.25, 1, 2]]);
  t.like(r.body.total, { costUsd: 1.6, turns: 6 });
});

test('a project renamed is named anew in a kept answer', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  recordUsage(s, await newRun(s, 'named', 'linear'), { at: D1, harness: 'claude', tokens: null, cost: { _tag: 'Reported', usd: 1 } });
  const q = `/api/usage?${MARCH}&groupBy=project`;
  t.deepEqual((await s.get(q)).body.rows.map((r: any) => r.label), ['demo']);
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ name: 'renamed' }))).status, 200);
  t.deepEqual((await s.get(q)).body.rows.map((r: any) => r.label), ['renamed']);
});

test('a range keeps only its days, both ends included', async (t) => {
  const r = await t.context.s.get('/api/usage?from=2026-03-02&to=2026-03-02&groupBy=harness');
  t.deepEqual(brief(r.body.rows), [['codex', 0.05, 0, 1], ['opencode', 0, 1, 1]]);
  t.deepEqual(r.body.total.tokens, { input: 300, cachedInput: 100, output: 30 });
  const none = await t.context.s.get('/api/usage?from=2025-01-01&to=2025-12-31');
  t.deepEqual(none.body.rows, []);
  t.deepEqual(none.body.total, { costUsd: 0, unknownTurns: 0, turns: 0, tokens: { input: 0, cachedInput: 0, output: 0 } });
});

test('by default the 30 days that end today, grouped by day', async (t) => {
  const r = await t.context.s.get('/api/usage');
  t.is(r.status, 200);
  t.is(r.body.groupBy, 'day');
  const days = (Date.parse(`${r.body.to}T00:00:00Z`) - Date.parse(`${r.body.from}T00:00:00Z`)) / 86_400_000;
  t.is(days, 29);
  const only = await t.context.s.get('/api/usage?to=2026-03-05');
  t.like(only.body, { from: '2026-02-04', to: '2026-03-05' });
  t.is(only.body.total.turns, 6);
});

test('a turn recorded now is in the next answer: the read model follows appends', async (t) => {
  const { s, a } = t.context;
  const at = '2026-04-20T12:00:00.000Z';
  const before = (await s.get('/api/usage?from=2026-04-20&to=2026-04-20&groupBy=run')).body;
  t.deepEqual(before.rows, []);
  recordUsage(s, a, { at, harness: 'claude', model: 'sonnet', tokens: tokens(7, 0, 7), cost: { _tag: 'Reported', usd: 0.07 } });
  const after = (await s.get('/api/usage?from=2026-04-20&to=2026-04-20&groupBy=run')).body;
  t.deepEqual(brief(after.rows), [[a, 0.07, 0, 1]]);
  // an answer kept from before follows too, its day's parts included
  const split = '/api/usage?from=2026-04-01&to=2026-04-30&split=harness';
  t.deepEqual((await s.get(split)).body.rows.map((r: any) => [r.key, brief(r.parts)]), [['2026-04-20', [['claude', 0.07, 0, 1]]]]);
  recordUsage(s, a, { at, harness: 'codex', tokens: null, cost: { _tag: 'Unknown', why: 'no price' } });
  recordUsage(s, a, { at: '2026-04-21T12:00:00.000Z', harness: 'claude', tokens: null, cost: { _tag: 'Reported', usd: 1 } });
  const later = (await s.get(split)).body;
  t.deepEqual(later.rows.map((r: any) => [r.key, brief(r.parts)]), [['2026-04-20', [['claude', 0.07, 0, 1], ['codex', 0, 1, 1]]], ['2026-04-21', [['claude', 1, 0, 1]]]]);
  t.like(later.total, { costUsd: 1.07, unknownTurns: 1, turns: 3 });
});

const BAD: readonly [string, RegExp][] = [
  ['from=2026-3-1', /"?from"?: must be a day written YYYY-MM-DD/],
  ['to=2026-02-30', /"?to"?: must be a day written YYYY-MM-DD/],
  ['from=yesterday', /must be a day written YYYY-MM-DD/],
  ['groupBy=week', /"?groupBy"?: must be one of day, project, harness, model, workflow, run/],
  ['groupBy=day&groupBy=run', /groupBy/],
  ['from=2026-03-05&to=2026-03-01', /from \(2026-03-05\) is after to \(2026-03-01\)/],
  ['since=2026-03-01', /unknown query parameter "?since"?; known: from, to, groupBy/],
  ['groupBy=run&split=harness', /split is for groupBy=day only/],
  ['split=day', /"?split"?: must be one of project, harness, model, workflow, run/],
  ['limit=0', /"?limit"?: must be a whole number from 1 to 10000/],
  ['limit=ten', /"?limit"?: must be a whole number from 1 to 10000/],
];

for (const [q, detail] of BAD) {
  test(`bad query ${q}: 400 with a detail, on both routes`, async (t) => {
    for (const path of ['/api/usage', '/api/usage.csv']) {
      const r = await t.context.s.get(`${path}?${q}`);
      if (path.endsWith('.csv') && /split|limit/.test(q)) { t.regex(r.body.detail, /unknown query parameter "?(split|limit)"?/); continue; }
      t.is(r.status, 400, path);
      t.regex(r.body.detail, detail, path);
    }
  });
}

test('the CSV: the same rows, a header line, RFC 4180 quoting, a download', async (t) => {
  const { s, a, b, c } = t.context;
  const res = await fetch(`${s.url}/api/usage.csv?${MARCH}&groupBy=run`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.is(res.headers.get('content-disposition'), 'attachment; filename="usage-2026-03-01-2026-03-31-by-run.csv"');
  t.is(await res.text(), [
    'key,label,costUsd,unknownTurns,turns,inputTokens,cachedInputTokens,outputTokens',
    `${b},"beta, ""quoted""",1.25,1,2,10,0,1`,
    `${a},alpha,0.35,0,3,1800,300,100`,
    `${c},'=formula,0,1,1,1,2,3`,
    '',
  ].join('\r\n'));
});

test('a restart answers the same sums: the read model starts from the runs, and then follows appends', async (t) => {
  const first = await testServer();
  const run = await newRun(first, 'kept', 'linear');
  recordUsage(first, run, { at: D1, harness: 'codex', model: 'gpt-5', tokens: tokens(9, 8, 7), cost: { _tag: 'Priced', usd: 0.5 } });
  const before = (await first.get(`/api/usage?${MARCH}&groupBy=run`)).body;
  await first.close();
  const again = await testServer({ home: first.home, repo: first.repo });
  t.teardown(() => again.close());
  t.deepEqual((await again.get(`/api/usage?${MARCH}&groupBy=run`)).body, before);
  recordUsage(again, run, { at: D1, harness: 'codex', model: 'gpt-5', tokens: tokens(1, 1, 1), cost: { _tag: 'Priced', usd: 0.25 } });
  t.deepEqual(brief((await again.get(`/api/usage?${MARCH}&groupBy=run`)).body.rows), [[run, 0.75, 0, 2]]);
});
