import '../helpers/env.js';
import test from 'ava';
import { testServer } from '../helpers/server.js';

// Issue 29, part 5: the spec's route group "chats" had no /api/chats; chats lived only under
// /api/supervisors/{id}/chat. GET /api/chats lists them: one per supervisor, how many entries it
// holds and its newest, and where to read it.

test('GET /api/chats lists each supervisor\'s chat with its size and newest entry; a query is refused by name', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  t.is((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }))).status, 200);
  const mine = (await s.post('/api/supervisors', { project: s.projectId })).body;
  const global = ((await s.get('/api/supervisors')).body as any[]).find((x) => x.project === null);
  t.truthy(global, 'the global supervisor is there from the start');
  t.is((await s.post(`/api/supervisors/${mine.id}/chat`, { text: 'How are the runs?' })).status, 200);

  const r = await s.get('/api/chats');
  t.is(r.status, 200, JSON.stringify(r.body));
  const byId = new Map((r.body.chats as any[]).map((c) => [c.supervisor, c]));
  t.deepEqual([...byId.keys()].sort(), [global.id, mine.id].sort());
  t.like(byId.get(global.id), { project: null, entries: 0, last: null, url: `/api/supervisors/${global.id}/chat` });
  const page = (await s.get(`/api/supervisors/${mine.id}/chat`)).body.entries as any[];
  const newest = page[page.length - 1];
  t.like(byId.get(mine.id), { project: s.projectId, entries: newest.seq, last: { seq: newest.seq, at: newest.at, type: newest.type }, url: `/api/supervisors/${mine.id}/chat` });

  const bad = await s.get('/api/chats?supervisor=x');
  t.is(bad.status, 400);
  t.regex(bad.body.detail, /unknown query parameter supervisor/);
});
