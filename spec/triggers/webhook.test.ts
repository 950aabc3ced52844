import '../helpers/env.js';
import { untrusted } from '../../lib/untrusted.js';
import anyTest, { type TestFn } from 'ava';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tokenPath } from '../../lib/auth/mcp-token.js';
import { eventually } from '../helpers/env.js';
import { untilEnded } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { call, json } from '../mcp/helpers/call.js';

// A Webhook rule over the real server: a delivery with the rule's secret starts one run (and the
// same delivery id again starts none); a wrong or missing secret is 401 and records nothing.

const test = anyTest as TestFn<{ s: TestServer; rule: any }>;

test.before(async (t) => {
  const s = await testServer();
  const r = await s.post('/api/triggers', {
    name: 'CI failed', project: s.projectId, workflow: 'linear', source: { _tag: 'Webhook' },
    goal: 'Look into {{event.summary}} on {{event.branch}}', title: 'CI: {{event.branch}}', inputs: { ticket: '{{event.url}}' },
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  t.context = { s, rule: r.body };
});
test.after.always(async (t) => { await t.context.s?.close(); });

const deliver = (s: TestServer, ruleId: string, secret: string | null, delivery: string | null, body: unknown) =>
  s.post(`/api/triggers/${ruleId}/events`, body, { ...(secret !== null ? { 'svc-trigger-secret': secret } : {}), ...(delivery ? { 'svc-delivery-id': delivery } : {}) });

test.serial('creating a Webhook rule shows its secret once, and its address', async (t) => {
  const { s, rule } = t.context;
  t.regex(rule.secret, /^[\w-]{40,}$/);
  t.deepEqual(rule.webhook, { path: `/api/triggers/${rule.id}/events`, secretHeader: 'svc-trigger-secret', deliveryHeader: 'svc-delivery-id' });
  t.deepEqual(rule.status, { _tag: 'Listening' });
  const read = await s.get(`/api/triggers/${rule.id}`);
  t.is(read.status, 200);
  t.false('secret' in read.body);
  t.false(JSON.stringify((await s.get('/api/triggers')).body).includes(rule.secret));
});

test.serial('a wrong or missing secret is 401 and starts nothing', async (t) => {
  const { s, rule } = t.context;
  for (const secret of [null, '', 'wrong', rule.secret.slice(0, -1), rule.secret + 'x']) {
    const r = await deliver(s, rule.id, secret, 'd-bad', { summary: 'build 1' });
    t.is(r.status, 401, String(secret));
    t.regex(r.body.detail, /svc-trigger-secret/);
  }
  t.deepEqual((await s.get(`/api/triggers/${rule.id}/events`)).body.events, []);
  t.is((await s.get('/api/runs')).body.length, 0);
});

test.serial('a good delivery starts one run that records startedBy; the same delivery again starts none', async (t) => {
  const { s, rule } = t.context;
  const body = { summary: 'build 42 failed', url: 'https://ci.example/42', fields: { branch: 'main' } };
  const first = await deliver(s, rule.id, rule.secret, 'delivery-42', body);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(first.body.outcome, 'Started');
  t.is(first.body.event, 'webhook:delivery-42');
  const runId = first.body.runId as string;
  const again = await deliver(s, rule.id, rule.secret, 'delivery-42', body);
  t.deepEqual([again.status, again.body.outcome, again.body.runId], [200, 'Duplicate', runId]);
  const ended = await untilEnded(s, runId);
  t.is(ended.standing, 'Succeeded');
  const startedBy = { rule: { id: rule.id, name: 'CI failed' }, event: { kind: 'Webhook', id: 'webhook:delivery-42', summary: 'build 42 failed', url: 'https://ci.example/42' } };
  t.deepEqual(ended.startedBy, startedBy);
  const http = (await s.get(`/api/runs/${runId}`)).body;
  t.deepEqual(http.startedBy, startedBy);
  t.is(http.goal, `Look into ${untrusted("the event's summary", 'build 42 failed')} on ${untrusted("the event's branch", 'main')}`);
  t.is(http.title, 'CI: main');
  t.is((await s.get('/api/runs')).body.length, 1);
  const events = (await s.get(`/api/triggers/${rule.id}/events`)).body.events;
  t.is(events.length, 1);
  t.like(events[0], { id: 'webhook:delivery-42', kind: 'Webhook', outcome: { _tag: 'Started', runId, standing: 'Succeeded' } });
});

test.serial('get_run over MCP shows startedBy', async (t) => {
  const { s, rule } = t.context;
  const runId = (await s.get('/api/runs')).body[0].runId;
  const client = new Client({ name: 'trigger-test', version: '1.0.0' });
  const token = readFileSync(tokenPath(s.home), 'utf8').trim();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const run = json<{ run: { startedBy: unknown } }>(await call(client, 'get_run', { run: runId })).run;
  await client.close();
  t.like(run.startedBy, { rule: { id: rule.id, name: 'CI failed' }, event: { kind: 'Webhook', id: 'webhook:delivery-42' } });
});

test.serial('without a delivery id the body names the event: the same body twice is one event', async (t) => {
  const { s, rule } = t.context;
  const a = await deliver(s, rule.id, rule.secret, null, { summary: 'nightly', fields: { branch: 'dev' } });
  const b = await deliver(s, rule.id, rule.secret, null, { summary: 'nightly', fields: { branch: 'dev' } });
  t.is(a.body.outcome, 'Started');
  t.is(b.body.outcome, 'Duplicate');
  t.is(a.body.event, b.body.event);
  await untilEnded(s, a.body.runId);
});

test.serial('POST /fire runs now with a test event of its own each time; a disabled rule takes no deliveries', async (t) => {
  const { s, rule } = t.context;
  const off = await s.send('PATCH', `/api/triggers/${rule.id}`, JSON.stringify({ enabled: false }));
  t.is(off.status, 200);
  t.deepEqual(off.body.status, { _tag: 'Off' });
  const refused = await deliver(s, rule.id, rule.secret, 'd-off', { summary: 'x' });
  t.is(refused.status, 409);
  const one = await s.post(`/api/triggers/${rule.id}/fire`, { summary: 'trying it', fields: { branch: 'test' } });
  const two = await s.post(`/api/triggers/${rule.id}/fire`, {});
  t.deepEqual([one.status, one.body.outcome, two.body.outcome], [200, 'Started', 'Started']);
  t.not(one.body.event, two.body.event);
  t.regex(one.body.event, /^manual:/);
  const d = await untilEnded(s, one.body.runId);
  t.like(d.startedBy, { event: { kind: 'Manual', summary: 'trying it' } });
  await untilEnded(s, two.body.runId);
});

test.serial('a new secret replaces the old one; deleting the rule ends its deliveries', async (t) => {
  const { s, rule } = t.context;
  const rotated = await s.send('PATCH', `/api/triggers/${rule.id}`, JSON.stringify({ newSecret: true, enabled: true }));
  t.is(rotated.status, 200);
  t.not(rotated.body.secret, rule.secret);
  t.is((await deliver(s, rule.id, rule.secret, 'd-old', {})).status, 401);
  const ok = await deliver(s, rule.id, rotated.body.secret, 'd-new', { fields: { branch: 'x' } });
  t.is(ok.body.outcome, 'Started');
  await untilEnded(s, ok.body.runId);
  t.is((await s.send('DELETE', `/api/triggers/${rule.id}`)).status, 200);
  t.is((await deliver(s, rule.id, rotated.body.secret, 'd-gone', {})).status, 404);
  t.is((await s.get(`/api/triggers/${rule.id}`)).status, 404);
  await eventually(() => s.get('/api/triggers'), (r) => r.body.length === 0);
  t.pass();
});
