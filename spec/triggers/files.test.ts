import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, sleep, tempDir } from '../helpers/env.js';
import { untilEnded } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';

// A Files rule over the real server: chokidar watches a temp folder, the glob picks the files,
// a written file fires once it is quiet, and the same content written again fires nothing.

const test = anyTest as TestFn<{ s: TestServer; folder: string; rule: any }>;

test.before(async (t) => {
  const s = await testServer();
  const folder = tempDir('svc-watched-');
  writeFileSync(join(folder, 'before.md'), 'here before the rule');
  const r = await s.post('/api/triggers', {
    name: 'notes', project: s.projectId, workflow: 'linear', goal: 'Read {{event.path}}',
    source: { _tag: 'Files', folder, glob: '**/*.md', debounceMs: 150 },
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  await eventually(() => s.get(`/api/triggers/${r.body.id}`), (x) => x.body.status._tag === 'Watching' && /watching/.test(x.body.status.detail));
  t.context = { s, folder, rule: r.body };
});
test.after.always(async (t) => { await t.context.s?.close(); });

const runs = async (s: TestServer): Promise<any[]> => (await s.get('/api/runs')).body;

test.serial('a file written into the watched folder starts one run; other names do not', async (t) => {
  const { s, folder, rule } = t.context;
  writeFileSync(join(folder, 'skip.txt'), 'not matched');
  mkdirSync(join(folder, 'inbox'));
  writeFileSync(join(folder, 'inbox', 'note.md'), 'first draft');
  const [run] = await eventually(() => runs(s), (rs) => rs.length >= 1);
  const d = await untilEnded(s, run.runId);
  t.is(d.goal, 'Read inbox/note.md');
  t.like(d.startedBy, { rule: { id: rule.id, name: 'notes' }, event: { kind: 'File', summary: 'inbox/note.md was written' } });
  t.regex(d.startedBy.event.id, /^file:[0-9a-f]{32}$/);
  t.is((await runs(s)).length, 1);
});

test.serial('the same content again fires nothing; new content fires again', async (t) => {
  const { s, folder, rule } = t.context;
  writeFileSync(join(folder, 'inbox', 'note.md'), 'first draft');
  await sleep(600); // past the debounce: the rewrite is handled (as a duplicate) before the next file
  writeFileSync(join(folder, 'later.md'), 'another');
  const later = await eventually(() => runs(s), (x) => x.some((r) => r.goal === 'Read later.md'));
  await untilEnded(s, later[0].runId);
  t.deepEqual((await runs(s)).map((r) => r.goal), ['Read later.md', 'Read inbox/note.md']);
  writeFileSync(join(folder, 'inbox', 'note.md'), 'second draft');
  const rs = await eventually(() => runs(s), (x) => x.length === 3);
  await untilEnded(s, rs[0].runId);
  const events = (await s.get(`/api/triggers/${rule.id}/events`)).body.events;
  t.deepEqual(events.map((e: any) => e.summary), ['inbox/note.md was written', 'later.md was written', 'inbox/note.md was written']);
  t.true(events.every((e: any) => e.outcome._tag === 'Started'));
});
