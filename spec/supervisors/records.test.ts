import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testServer, type TestServer } from '../helpers/server.js';

// Supervisor records over HTTP on a real server: the feature switch makes the global one, a
// project's is made by POST, settings change with their sender recorded, keys are owner-only
// files and regenerate, the ledger sums today's costs, and bad input is a 4xx with a detail.

const test = anyTest as TestFn<{ s: TestServer; ids: { projectSup: string } }>;

const FEATURE_ON = { _tag: 'Supervisors', enabled: true };
const who = { 'svc-setting-source': 'records-test' };

test.before(async (t) => {
  const s = await testServer();
  t.context = { s, ids: { projectSup: '' } };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

test.serial('off by default: no supervisors; switching the feature on makes the global one with safe defaults', async (t) => {
  const { s } = t.context;
  t.deepEqual((await s.get('/api/supervisors')).body, []);
  t.is((await s.get('/api/settings')).body.supervisors?.enabled, false);
  t.is((await s.send('PUT', '/api/settings', JSON.stringify(FEATURE_ON), { 'content-type': 'application/json', ...who })).status, 200);
  const list = (await s.get('/api/supervisors')).body;
  t.is(list.length, 1);
  const g = list[0];
  t.like(g, { id: 'global', project: null, enabled: true, pausedUntil: null, runCap: 2, dailyLimitUsd: 5, spentTodayUsd: 0, quotaFallbacks: [] });
  t.deepEqual(g.actions, { messageAndControl: 'AskFirst', secureWork: 'AskFirst', switchHarness: 'AskFirst', startRuns: 'AskFirst', archiveRuns: 'AskFirst' });
  t.regex(g.key, /^[A-Za-z0-9_-]{40,}$/);
  // switching on again makes no second one
  await s.send('PUT', '/api/settings', JSON.stringify(FEATURE_ON), { 'content-type': 'application/json' });
  t.is((await s.get('/api/supervisors')).body.length, 1);
});

test.serial('a project supervisor is made by POST, once per project; its key is an owner-only file', async (t) => {
  const { s } = t.context;
  const made = await s.post('/api/supervisors', { project: s.projectId }, who);
  t.is(made.status, 200, JSON.stringify(made.body));
  t.is(made.body.project, s.projectId);
  t.context.ids.projectSup = made.body.id;
  const again = await s.post('/api/supervisors', { project: s.projectId });
  t.is(again.status, 409);
  t.regex(again.body.detail, /has a supervisor already/);
  const dir = join(s.home, 'supervisor-keys');
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.is(statSync(join(dir, made.body.id)).mode & 0o777, 0o600);
  t.is(readFileSync(join(dir, made.body.id), 'utf8').trim(), made.body.key);
});

test.serial('PATCH changes settings and records who sent it; paused means until the next local midnight', async (t) => {
  const { s, ids: { projectSup } } = t.context;
  const r = await s.send('PATCH', `/api/supervisors/${projectSup}`, JSON.stringify({ actions: { startRuns: 'DoIt', archiveRuns: 'Never' }, runCap: 4, dailyLimitUsd: 12.5, quotaFallbacks: ['codex', 'opencode'], paused: true, notes: 'n1' }), { 'content-type': 'application/json', ...who });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.like(r.body, { runCap: 4, dailyLimitUsd: 12.5, quotaFallbacks: ['codex', 'opencode'], notes: 'n1' });
  t.like(r.body.actions, { startRuns: 'DoIt', archiveRuns: 'Never', messageAndControl: 'AskFirst' });
  const midnight = new Date();
  midnight.setHours(24, 0, 0, 0);
  t.is(r.body.pausedUntil, midnight.toISOString());
  t.regex(r.body.heldBecause, /paused for the day/);
  const resumed = await s.send('PATCH', `/api/supervisors/${projectSup}`, JSON.stringify({ paused: false }), { 'content-type': 'application/json' });
  t.is(resumed.body.pausedUntil, null);
  t.is(resumed.body.heldBecause, null);
  const recorded = s.service.core.journal.read(`supervisor:${projectSup}`).filter((e) => e.type === 'SupervisorChanged');
  t.deepEqual(recorded.map((e) => (e.data as { source: unknown }).source), [{ via: 'http', sender: 'records-test' }, { via: 'http', sender: null }]);
});

test.serial('POST /key regenerates the key: the old one is gone from the list and the file', async (t) => {
  const { s, ids: { projectSup } } = t.context;
  const before = (await s.get(`/api/supervisors/${projectSup}`)).body.key;
  const r = await s.post(`/api/supervisors/${projectSup}/key`, {});
  t.is(r.status, 200);
  t.not(r.body.key, before);
  t.is(readFileSync(join(s.home, 'supervisor-keys', projectSup), 'utf8').trim(), r.body.key);
  t.is(s.service.core.journal.read(`supervisor:${projectSup}`).filter((e) => e.type === 'SupervisorKeyRegenerated').length, 1);
  t.false(JSON.stringify(s.service.core.journal.read(`supervisor:${projectSup}`)).includes(r.body.key), 'the key never goes into the journal');
});

test.serial("the ledger: costs appended through its command sum into today's spending and hold actions at the limit", async (t) => {
  const { s } = t.context;
  const sups = s.service.core.supervisors;
  const now = new Date().toISOString();
  sups.recordCost('global', 't1', { _tag: 'Known', usd: 3 }, now);
  sups.recordCost('global', 't2', { _tag: 'Unknown', why: 'no usage reported' }, now);
  t.is((await s.get('/api/supervisors/global')).body.spentTodayUsd, 3);
  sups.recordCost('global', 't3', { _tag: 'Known', usd: 2 }, now);
  const g = (await s.get('/api/supervisors/global')).body;
  t.is(g.spentTodayUsd, 5);
  t.regex(g.heldBecause, /today's spending limit/);
  await s.send('PATCH', '/api/supervisors/global', JSON.stringify({ dailyLimitUsd: 50 }), { 'content-type': 'application/json' });
  t.is((await s.get('/api/supervisors/global')).body.heldBecause, null);
});

const BAD: readonly { name: string; method: string; path: string; body?: string; status: number; detail: RegExp }[] = [
  { name: 'POST without project', method: 'POST', path: '/api/supervisors', body: '{}', status: 400, detail: /project is required/ },
  { name: 'POST with an unknown field', method: 'POST', path: '/api/supervisors', body: '{"project":"x","color":1}', status: 400, detail: /unknown field "color"/ },
  { name: 'POST for an unknown project', method: 'POST', path: '/api/supervisors', body: '{"project":"nope"}', status: 404, detail: /unknown project: nope/ },
  { name: 'POST a second global one', method: 'POST', path: '/api/supervisors', body: '{"project":null}', status: 409, detail: /exists already/ },
  { name: 'POST not JSON', method: 'POST', path: '/api/supervisors', body: '{', status: 400, detail: /JSON/ },
  { name: 'POST an array', method: 'POST', path: '/api/supervisors', body: '[]', status: 400, detail: /object/ },
  { name: 'PATCH an unknown supervisor', method: 'PATCH', path: '/api/supervisors/nope', body: '{"runCap":1}', status: 404, detail: /unknown supervisor: nope/ },
  { name: 'PATCH a misspelt action', method: 'PATCH', path: '/api/supervisors/global', body: '{"actions":{"startRun":"DoIt"}}', status: 400, detail: /unknown key "startRun"/ },
  { name: 'PATCH a tier that is not one', method: 'PATCH', path: '/api/supervisors/global', body: '{"actions":{"startRuns":"Maybe"}}', status: 400, detail: /actions\.startRuns/ },
  { name: 'PATCH runCap out of range', method: 'PATCH', path: '/api/supervisors/global', body: '{"runCap":1000}', status: 400, detail: /runCap must be a whole number/ },
  { name: 'PATCH runCap as text', method: 'PATCH', path: '/api/supervisors/global', body: '{"runCap":"2"}', status: 400, detail: /runCap/ },
  { name: 'PATCH a negative limit', method: 'PATCH', path: '/api/supervisors/global', body: '{"dailyLimitUsd":-1}', status: 400, detail: /dailyLimitUsd/ },
  { name: 'PATCH an unknown harness', method: 'PATCH', path: '/api/supervisors/global', body: '{"quotaFallbacks":["gemini"]}', status: 400, detail: /quotaFallbacks/ },
  { name: 'PATCH notes too long', method: 'PATCH', path: '/api/supervisors/global', body: JSON.stringify({ notes: 'x'.repeat(20_001) }), status: 400, detail: /at most 20000/ },
  { name: 'PATCH pausedUntil directly', method: 'PATCH', path: '/api/supervisors/global', body: '{"pausedUntil":"2030-01-01T00:00:00Z"}', status: 400, detail: /unknown field "pausedUntil"/ },
  { name: 'POST key with a body field', method: 'POST', path: '/api/supervisors/global/key', body: '{"key":"mine"}', status: 400, detail: /unknown field "key"/ },
  { name: 'POST key of an unknown supervisor', method: 'POST', path: '/api/supervisors/nope/key', body: '{}', status: 404, detail: /unknown supervisor/ },
  { name: 'DELETE the list', method: 'DELETE', path: '/api/supervisors', status: 405, detail: /not allowed/ },
];

for (const row of BAD) {
  test.serial(`bad input: ${row.name} is ${row.status} with a detail, and changes nothing`, async (t) => {
    const { s } = t.context;
    const before = JSON.stringify((await s.get('/api/supervisors')).body);
    const r = await s.send(row.method, row.path, row.body, row.body !== undefined ? { 'content-type': 'application/json' } : {});
    t.is(r.status, row.status, JSON.stringify(r.body));
    t.regex(r.body.detail, row.detail);
    t.is(JSON.stringify((await s.get('/api/supervisors')).body), before);
  });
}
