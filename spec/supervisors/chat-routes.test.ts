import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { chatOver } from './live-kit.js';

// The chat routes over HTTP with the feature switched off (so no turn runs): a person's message
// is kept and the chat says why it waits; pages walk back with `before`; bad input is a 4xx with
// a detail and records nothing.

const JSON_TYPE = { 'content-type': 'application/json' };

test('messages while the feature is off are kept, the chat says why once, and the pages walk back', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  const global = (await s.get('/api/supervisors')).body[0].id as string;
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: false }), JSON_TYPE);

  const first = await s.post(`/api/supervisors/${global}/chat`, { text: 'message 1' }, { 'svc-setting-source': 'ann' });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body, { entry: { seq: 1, type: 'PersonWrote', data: { text: 'message 1', sender: 'ann' } }, heldBecause: 'the supervisor feature is off in Settings' });
  for (let i = 2; i <= 6; i++) t.is((await s.post(`/api/supervisors/${global}/chat`, { text: `message ${i}` })).status, 200);

  const all = await chatOver(s.get)(global);
  t.deepEqual(all.map((e) => e.type), ['PersonWrote', 'WakesHeld', 'PersonWrote', 'PersonWrote', 'PersonWrote', 'PersonWrote', 'PersonWrote']);
  t.is(all[1]!.data.reason, 'the supervisor feature is off in Settings', 'the reason is said once');
  t.deepEqual(all.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7]);
  t.true(all.every((e) => typeof e.at === 'string'));

  const newest = (await s.get(`/api/supervisors/${global}/chat?pageSize=3`)).body;
  t.deepEqual(newest.entries.map((e: any) => e.seq), [5, 6, 7], 'the newest page, oldest first');
  t.is(newest.before, 5);
  const older = (await s.get(`/api/supervisors/${global}/chat?pageSize=3&before=${newest.before}`)).body;
  t.deepEqual(older.entries.map((e: any) => e.seq), [2, 3, 4]);
  const oldest = (await s.get(`/api/supervisors/${global}/chat?pageSize=3&before=${older.before}`)).body;
  t.deepEqual(oldest, { entries: [all[0]], before: null });
  t.is((await s.get(`/api/supervisors/${global}/chat`)).body.entries.length, 7, 'a page is 25 entries by default');

  // switched on: the loop starts and the waiting messages get one turn (here on the scripted
  // stand-in harness), whose cost goes to the ledger
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  const ran = await eventually(() => chatOver(s.get)(global), (c) => c.some((e) => e.type === 'TurnEnded'));
  const started = ran.filter((e) => e.type === 'TurnStarted');
  t.is(started.length, 1, 'one turn for all six messages');
  t.is(started[0]!.data.upTo, 7);
  const cost = ran.find((e) => e.type === 'TurnEnded')!.data.cost;
  const view = (await s.get(`/api/supervisors/${global}`)).body;
  t.is(view.spentTodayUsd, cost._tag !== 'Unknown' ? cost.usd : 0);
});

test('bad input: 4xx with a detail, nothing recorded', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  const global = (await s.get('/api/supervisors')).body[0].id as string;
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: false }), JSON_TYPE);
  const post = (body: string) => s.send('POST', `/api/supervisors/${global}/chat`, body, JSON_TYPE);
  const cases: [string, Promise<{ status: number; body: any }>, number, RegExp][] = [
    ['blank text', post(JSON.stringify({ text: '   ' })), 400, /text: must not be blank/],
    ['no text', post('{}'), 400, /text is required/],
    ['text not a string', post(JSON.stringify({ text: 7 })), 400, /text/],
    ['unknown field', post(JSON.stringify({ text: 'hi', sender: 'x' })), 400, /unknown field "sender"/],
    ['not an object', post('[]'), 400, /JSON object/],
    ['not JSON', post('{'), 400, /JSON/],
    ['too long', post(JSON.stringify({ text: 'x'.repeat(20_001) })), 400, /longer than 20000 characters/],
    ['unknown supervisor (write)', s.post('/api/supervisors/nobody/chat', { text: 'hi' }), 404, /unknown supervisor: nobody/],
    ['unknown supervisor (read)', s.get('/api/supervisors/nobody/chat'), 404, /unknown supervisor: nobody/],
    ['pageSize 0', s.get(`/api/supervisors/${global}/chat?pageSize=0`), 400, /pageSize must be a whole number from 1 to 200/],
    ['pageSize 201', s.get(`/api/supervisors/${global}/chat?pageSize=201`), 400, /pageSize/],
    ['before not a number', s.get(`/api/supervisors/${global}/chat?before=abc`), 400, /before must be a whole number/],
    ['unknown query', s.get(`/api/supervisors/${global}/chat?page=2`), 400, /unknown query parameter page/],
    ['wrong method', s.send('DELETE', `/api/supervisors/${global}/chat`), 405, /allowed: .*GET.*POST|allowed: .*POST.*GET/],
  ];
  for (const [name, pending, status, detail] of cases) {
    const r = await pending;
    t.is(r.status, status, `${name}: ${JSON.stringify(r.body)}`);
    t.regex(String(r.body?.detail), detail, name);
  }
  t.deepEqual((await s.get(`/api/supervisors/${global}/chat`)).body, { entries: [], before: null }, 'nothing was recorded');
});
