// /api/personas on a real server: every origin with its precedence, custom personas saved and
// removed, validation, and a saved persona used by the next run step that names it (the scripted
// harness records the system prompt each turn was given).
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, tempDir, writtenJsonLines } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';

const systemLog = join(tempDir('svc-personas-'), 'system.jsonl');
process.env['SCRIPTED_SYSTEM_LOG'] = systemLog;

const put = (s: TestServer, name: string, body: unknown) => s.send('PUT', `/api/personas/${name}`, JSON.stringify(body));
const del = (s: TestServer, name: string) => s.send('DELETE', `/api/personas/${name}`);

const CRITIQUED = `digraph critiqued {
  start  [kind=start]
  review [kind=agent, persona=critic, prompt="{{goal}}"]
  done   [kind=exit]
  start -> review -> done
}`;

const server = async (t: { teardown(f: () => unknown): void }) => {
  const s = await testServer({ workflows: { critiqued: CRITIQUED } });
  t.teardown(() => s.close());
  return s;
};

test('the list shows shipped, home and project personas with their origin, and one that does not load with why', async (t) => {
  const s = await server(t);
  mkdirSync(join(s.home, 'personas'), { recursive: true });
  writeFileSync(join(s.home, 'personas', 'scribe.md'), '---\ndescription: Writes notes\nmodel: haiku\n---\nYou write short notes.\n');
  writeFileSync(join(s.home, 'personas', 'broken.md'), '---\nharness: gpt\n---\n');
  mkdirSync(join(s.repo, '.svc', 'personas'), { recursive: true });
  writeFileSync(join(s.repo, '.svc', 'personas', 'planner.md'), '---\ntools: edit\n---\nProject planner.\n');

  const all = await eventually(async () => (await s.get('/api/personas')).body.personas as any[], (ps) => ps.length === 5);
  const byName = Object.fromEntries(all.map((p) => [p.name, p]));
  t.deepEqual(Object.keys(byName).sort(), ['broken', 'implementer', 'planner', 'reviewer', 'scribe']);
  t.like(byName['planner'], { origin: 'shipped', tools: 'read-only', loads: true, problems: [] });
  t.like(byName['scribe'], { origin: 'home', description: 'Writes notes', model: 'haiku', harness: null, loads: true });
  t.is(byName['broken'].loads, false);
  t.regex(byName['broken'].problems.join(' '), /unknown harness gpt/);
  t.regex(byName['broken'].problems.join(' '), /no prompt/);

  const inProject = await eventually(async () => (await s.get(`/api/personas?project=${s.projectId}`)).body.personas as any[], (ps) => ps.find((p) => p.name === 'planner')?.origin === 'project');
  t.like(inProject.find((p) => p.name === 'planner'), { origin: 'project', tools: 'edit' }, 'a project persona shadows the shipped one');
  const read = (await s.get(`/api/personas/planner?project=${s.projectId}`)).body;
  t.like(read, { name: 'planner', origin: 'project', prompt: 'Project planner.', source: '---\ntools: edit\n---\nProject planner.\n' });
  t.like((await s.get('/api/personas/planner')).body, { origin: 'shipped' }, 'without a project, project personas do not apply');
});

test('a custom persona is saved from parts or from a file text, shadows every other origin, and is removed with DELETE', async (t) => {
  const s = await server(t);
  const saved = await put(s, 'critic', { prompt: 'You are a sharp critic.', description: 'Finds holes', harness: 'codex', model: 'gpt-5-codex', tools: 'read-only' });
  t.is(saved.status, 200, JSON.stringify(saved.body));
  t.deepEqual(saved.body, {
    name: 'critic', origin: 'custom', description: 'Finds holes', harness: 'codex', model: 'gpt-5-codex', tools: 'read-only', loads: true, problems: [],
    source: '---\ndescription: Finds holes\nharness: codex\nmodel: gpt-5-codex\ntools: read-only\n---\nYou are a sharp critic.\n', prompt: 'You are a sharp critic.',
  });
  t.like((await s.get('/api/personas/critic')).body, { origin: 'custom', harness: 'codex' });

  const planner = await put(s, 'planner', { source: '---\ntools: full\n---\nCustom planner.\n' });
  t.is(planner.status, 200);
  t.like((await s.get(`/api/personas/planner?project=${s.projectId}`)).body, { origin: 'custom', tools: 'full', prompt: 'Custom planner.' });
  const bare = await put(s, 'bare', { prompt: '---\nnot a header' });
  t.like(bare.body, { loads: true, prompt: '---\nnot a header' }, 'a prompt opening with --- is kept as the prompt');

  t.is((await del(s, 'planner')).status, 204);
  t.like((await s.get('/api/personas/planner')).body, { origin: 'shipped', tools: 'read-only' }, 'deleting brings the shipped one back');
  const again = await del(s, 'planner');
  t.is(again.status, 404);
  t.regex(again.body.detail, /only custom personas can be deleted/);
});

const turns = (): any[] => writtenJsonLines(systemLog);

test('a saved custom persona is used by the next step that names it, and an edit by the step after', async (t) => {
  const s = await server(t);
  const before = await s.post('/api/runs', { project: s.projectId, goal: 'review it', workflow: 'critiqued' });
  t.is(before.status, 400, 'the workflow names a persona that does not exist yet');
  t.regex(before.body.detail, /critic/);

  t.is((await put(s, 'critic', { prompt: 'CRITIC-MARKER-ONE: find the holes.', tools: 'read-only', model: 'critic-model' })).status, 200);
  const first = await startRun(s, { goal: 'review it', workflow: 'critiqued' });
  await untilStanding(s, first, 'Succeeded', 60_000);
  const one = turns().find((r) => r.runId === first);
  t.truthy(one, 'the scripted harness recorded the turn');
  t.true(one.systemPrompt.startsWith('CRITIC-MARKER-ONE: find the holes.'), one.systemPrompt);
  t.is(one.tools, 'read-only');
  t.is(one.model, 'critic-model');

  t.is((await put(s, 'critic', { source: '---\ntools: full\n---\nCRITIC-MARKER-TWO\n' })).status, 200);
  const second = await startRun(s, { goal: 'review again', workflow: 'critiqued' });
  await untilStanding(s, second, 'Succeeded', 60_000);
  const two = await eventually(() => turns().find((r) => r.runId === second), (r) => r !== undefined);
  t.true(two.systemPrompt.startsWith('CRITIC-MARKER-TWO'));
  t.false(two.systemPrompt.includes('MARKER-ONE'));
  t.is(two.tools, 'full');
  t.is(two.model, null);
});

test('bad input is a 4xx with a detail, and nothing is saved', async (t) => {
  const s = await server(t);
  const cases: [string, string | undefined, number, RegExp][] = [
    ['Bad_Name', JSON.stringify({ prompt: 'x' }), 400, /persona name/],
    ['-dash', JSON.stringify({ prompt: 'x' }), 400, /persona name/],
    ['ok', '[1,2]', 400, /JSON object/],
    ['ok', '"text"', 400, /JSON object/],
    ['ok', '{}', 400, /source or prompt is required/],
    ['ok', JSON.stringify({ source: 'x', prompt: 'y' }), 400, /not both/],
    ['ok', JSON.stringify({ source: 42 }), 400, /source must be a string/],
    ['ok', JSON.stringify({ source: 'x', tools: 'edit' }), 400, /unknown field "tools" next to source/],
    ['ok', JSON.stringify({ prompt: 'x', temperature: '1' }), 400, /unknown field "temperature"/],
    ['ok', JSON.stringify({ prompt: 'x', harness: 3 }), 400, /harness must be a string/],
    ['ok', JSON.stringify({ prompt: 'x', description: 'two\nlines' }), 400, /one line/],
    ['ok', JSON.stringify({ prompt: '   ' }), 400, /no prompt/],
    ['ok', JSON.stringify({ prompt: 'x', harness: 'gemini' }), 400, /unknown harness gemini/],
    ['ok', JSON.stringify({ prompt: 'x', tools: 'root' }), 400, /unknown tools value root/],
    ['ok', JSON.stringify({ prompt: 'x', model: 'two words' }), 400, /model .* without spaces/],
    ['ok', JSON.stringify({ prompt: 'x', description: 'd'.repeat(301) }), 400, /description is longer/],
    ['ok', JSON.stringify({ source: '---\ncolour: red\n---\nx' }), 400, /unknown header key colour/],
    ['ok', JSON.stringify({ source: '---\ntools: edit\nx' }), 400, /never closed/],
    ['ok', JSON.stringify({ source: '---\nmodel: a\nmodel: b\n---\nx' }), 400, /given twice/],
    ['ok', JSON.stringify({ source: 'x'.repeat(300 * 1024) }), 400, /larger than 256 KiB/],
    ['ok', '{"prompt":', 400, /malformed JSON/],
    ['ok', 'x'.repeat(1024 * 1024 + 10), 413, /larger than/],
  ];
  for (const [name, body, status, detail] of cases) {
    const r = await s.send('PUT', `/api/personas/${name}`, body);
    t.is(r.status, status, `${name} ${body?.slice(0, 60)}`);
    t.regex(String(r.body?.detail), detail, `${name} ${body?.slice(0, 60)}`);
  }
  const wrongType = await s.send('PUT', '/api/personas/ok', 'prompt=x', { 'content-type': 'text/plain' });
  t.is(wrongType.status, 415);
  t.is((await s.get('/api/personas/ok')).status, 404);
  t.regex((await s.get('/api/personas/ok')).body.detail, /unknown persona: ok/);
  t.is((await s.get('/api/personas/BAD')).status, 400);
  t.is((await s.get('/api/personas?project=nope')).status, 404);
  t.is((await s.get('/api/personas?project=a&project=b')).status, 400);
  t.is((await s.send('POST', '/api/personas', '{}')).status, 405);
  t.false(((await s.get('/api/personas')).body.personas as any[]).some((p) => p.origin === 'custom'), 'nothing was saved');
});
