import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { isRefusal } from '../helpers/http-kit.js';
import { tempDir } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';

// Bad requests to the trigger routes: each is a 4xx with a detail, never a 500, and nothing is
// recorded: the rules and runs the server held are still all there is afterwards.

const test = anyTest as TestFn<{ s: TestServer; webhook: any; schedule: any }>;

const rule = (over: Record<string, unknown> = {}) => ({ name: 'r', project: '{project}', workflow: 'linear', source: { _tag: 'Webhook' }, goal: 'g', ...over });

test.before(async (t) => {
  const s = await testServer();
  const webhook = (await s.post('/api/triggers', rule({ project: s.projectId, name: 'hook' }))).body;
  const schedule = (await s.post('/api/triggers', rule({ project: s.projectId, name: 'nightly', source: { _tag: 'Schedule', cron: '0 3 * * *', timeZone: 'Europe/Berlin' } }))).body;
  if (!webhook.id || !schedule.id) throw new Error(JSON.stringify([webhook, schedule]));
  t.context = { s, webhook, schedule };
});
test.after.always(async (t) => { await t.context.s?.close(); });

interface Row { readonly name: string; readonly method: string; readonly path: string; readonly body?: unknown; readonly headers?: Record<string, string>; readonly status: number; readonly detail?: RegExp }

const W = '{webhook}';
const S = '{schedule}';
const secretOf = '{secret}';
const missingFolder = '/nonexistent/svc-test-folder';

const TABLE: readonly Row[] = [
  { name: 'malformed JSON', method: 'POST', path: '/api/triggers', body: '{"name": ', status: 400 },
  { name: 'an array body', method: 'POST', path: '/api/triggers', body: '[]', status: 400 },
  { name: 'no name', method: 'POST', path: '/api/triggers', body: { ...rule(), name: undefined }, status: 400, detail: /name/ },
  { name: 'a blank goal', method: 'POST', path: '/api/triggers', body: rule({ goal: ' ' }), status: 400, detail: /goal/ },
  { name: 'a two-line name', method: 'POST', path: '/api/triggers', body: rule({ name: 'a\nb' }), status: 400, detail: /name/ },
  { name: 'an unknown field', method: 'POST', path: '/api/triggers', body: rule({ colour: 'red' }), status: 400, detail: /colour/ },
  { name: 'no source', method: 'POST', path: '/api/triggers', body: rule({ source: undefined }), status: 400, detail: /source/ },
  { name: 'an unknown source', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Email' } }), status: 400 },
  { name: 'a misspelt source field', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Schedule', cron: '* * * * *', timezone: 'UTC' } }), status: 400 },
  { name: 'a bad cron', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Schedule', cron: 'every day', timeZone: 'UTC' } }), status: 400, detail: /cron|pattern|parts/i },
  { name: 'an unknown time zone', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Schedule', cron: '0 3 * * *', timeZone: 'Mars/Olympus' } }), status: 400, detail: /Mars\/Olympus/ },
  { name: 'a repository that is not owner/name', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'CodeHost', repository: 'just-a-name', label: 'svc' } }), status: 400, detail: /owner\/name/ },
  { name: 'a CodeHost source watching nothing', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'CodeHost', repository: 'acme/app' } }), status: 400, detail: /label/ },
  { name: 'a command of two words', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'CodeHost', repository: 'acme/app', command: '/svc go' } }), status: 400, detail: /one word/ },
  { name: 'a relative folder', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Files', folder: 'inbox', glob: '*.md' } }), status: 400, detail: /absolute/ },
  { name: 'a folder that does not exist', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Files', folder: missingFolder, glob: '*.md' } }), status: 400, detail: /does not exist/ },
  { name: 'a debounce out of range', method: 'POST', path: '/api/triggers', body: rule({ source: { _tag: 'Files', folder: '{tmp}', glob: '*.md', debounceMs: -5 } }), status: 400, detail: /debounceMs/ },
  { name: 'an unknown project', method: 'POST', path: '/api/triggers', body: rule({ project: 'nope' }), status: 400, detail: /project/ },
  { name: 'an unknown workflow', method: 'POST', path: '/api/triggers', body: rule({ workflow: 'nope' }), status: 400, detail: /workflow/ },
  { name: 'an input the workflow does not declare', method: 'POST', path: '/api/triggers', body: rule({ inputs: { colour: '{{event.url}}' } }), status: 400, detail: /colour/ },
  { name: 'an input that is not text', method: 'POST', path: '/api/triggers', body: rule({ inputs: { ticket: 5 } }), status: 400 },
  { name: 'a model without a harness', method: 'POST', path: '/api/triggers', body: rule({ model: 'm' }), status: 400, detail: /harness/ },
  { name: 'an unknown harness', method: 'POST', path: '/api/triggers', body: rule({ harness: 'gpt' }), status: 400 },
  { name: 'enabled as text', method: 'POST', path: '/api/triggers', body: rule({ enabled: 'yes' }), status: 400 },
  { name: 'GET an unknown rule', method: 'GET', path: '/api/triggers/t-nope', status: 404 },
  { name: 'PATCH an unknown rule', method: 'PATCH', path: '/api/triggers/t-nope', body: { enabled: false }, status: 404 },
  { name: 'PATCH an unknown field', method: 'PATCH', path: `/api/triggers/${S}`, body: { cron: '* * * * *' }, status: 400, detail: /cron/ },
  { name: 'PATCH a bad cron', method: 'PATCH', path: `/api/triggers/${S}`, body: { source: { _tag: 'Schedule', cron: '61 * * * *', timeZone: 'UTC' } }, status: 400 },
  { name: 'PATCH a new secret onto a schedule', method: 'PATCH', path: `/api/triggers/${S}`, body: { newSecret: true }, status: 409 },
  { name: 'DELETE an unknown rule', method: 'DELETE', path: '/api/triggers/t-nope', status: 404 },
  { name: 'fire an unknown rule', method: 'POST', path: '/api/triggers/t-nope/fire', body: {}, status: 404 },
  { name: 'fire with fields that are not text', method: 'POST', path: `/api/triggers/${W}/fire`, body: { fields: { n: 1 } }, status: 400 },
  { name: 'fire with an unknown field', method: 'POST', path: `/api/triggers/${W}/fire`, body: { goal: 'x' }, status: 400 },
  { name: 'events of an unknown rule', method: 'GET', path: '/api/triggers/t-nope/events', status: 404 },
  { name: 'events with limit 0', method: 'GET', path: `/api/triggers/${W}/events?limit=0`, status: 400, detail: /limit/ },
  { name: 'events with limit 1000', method: 'GET', path: `/api/triggers/${W}/events?limit=1000`, status: 400, detail: /limit/ },
  { name: 'a delivery to a schedule rule', method: 'POST', path: `/api/triggers/${S}/events`, body: {}, headers: { 'svc-trigger-secret': 'x' }, status: 409, detail: /Schedule/ },
  { name: 'a delivery with a bad delivery id', method: 'POST', path: `/api/triggers/${W}/events`, body: {}, headers: { 'svc-trigger-secret': secretOf, 'svc-delivery-id': 'a b' }, status: 400, detail: /svc-delivery-id/ },
  { name: 'a delivery with an unknown field', method: 'POST', path: `/api/triggers/${W}/events`, body: { payload: {} }, headers: { 'svc-trigger-secret': secretOf }, status: 400, detail: /payload/ },
  { name: 'a delivery that is not JSON', method: 'POST', path: `/api/triggers/${W}/events`, body: 'hello', headers: { 'svc-trigger-secret': secretOf }, status: 400 },
  { name: 'a delivery with no secret', method: 'POST', path: `/api/triggers/${W}/events`, body: {}, status: 401 },
  { name: 'PUT on the rules', method: 'PUT', path: '/api/triggers', body: {}, status: 405 },
];

const fill = (t: { context: { s: TestServer; webhook: any; schedule: any } }, text: string, tmp: string): string =>
  text.replaceAll('{project}', t.context.s.projectId).replaceAll(W, t.context.webhook.id).replaceAll(S, t.context.schedule.id)
    .replaceAll(secretOf, t.context.webhook.secret).replaceAll('{tmp}', tmp);

for (const row of TABLE) {
  test.serial(`${row.name}: ${row.status}`, async (t) => {
    const tmp = tempDir('svc-trig-');
    const raw = row.body === undefined ? undefined : typeof row.body === 'string' ? row.body : JSON.stringify(row.body);
    const headers = Object.fromEntries(Object.entries(row.headers ?? {}).map(([k, v]) => [k, fill(t, v, tmp)]));
    const r = await t.context.s.send(row.method, fill(t, row.path, tmp), raw === undefined ? undefined : fill(t, raw, tmp), headers);
    t.is(r.status, row.status, JSON.stringify(r.body));
    t.true(isRefusal(r), JSON.stringify(r.body));
    if (row.detail) t.regex(r.body.detail, row.detail);
  });
}

test.serial('nothing was recorded by the refused requests', async (t) => {
  const { s, webhook, schedule } = t.context;
  const rules = (await s.get('/api/triggers')).body;
  t.deepEqual(rules.map((r: any) => [r.id, r.name, r.source._tag]), [[webhook.id, 'hook', 'Webhook'], [schedule.id, 'nightly', 'Schedule']]);
  t.deepEqual(rules[1].source, { _tag: 'Schedule', cron: '0 3 * * *', timeZone: 'Europe/Berlin' });
  t.deepEqual((await s.get(`/api/triggers/${webhook.id}/events`)).body.events, []);
  t.is((await s.get('/api/runs')).body.length, 0);
});
