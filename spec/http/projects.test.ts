import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gitRepo, repoRoot, tempDir } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';

// Projects over HTTP: create, list, read, rename, default workflow, add and remove folders, and
// the health record's counts.

const test = anyTest as TestFn<{ s: TestServer }>;

test.before(async (t) => {
  t.context.s = await testServer();
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

const newProject = (s: TestServer, name: string, folders: { path: string; name?: string }[]) => s.post('/api/projects', { name, folders });

// Serial tests run before the others: the counts here are not disturbed by projects made below.
test.serial('health: version, available with running, and the counts of projects and runs', async (t) => {
  const { s } = t.context;
  const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const h = await s.get('/api/health');
  t.is(h.status, 200);
  t.is(h.body.version, version);
  t.is(typeof h.body.available._tag, 'string');
  t.is(h.body.available.running, version);
  t.is(h.body.projects, 1);
  t.is(h.body.runs, 0);
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'count me', workflow: 'linear', start: false });
  t.is(r.status, 200);
  t.like((await s.get('/api/health')).body, { projects: 1, runs: 1 });
  const made = await newProject(s, 'counted', [{ path: gitRepo() }]);
  t.is(made.status, 200, JSON.stringify(made.body));
  t.like((await s.get('/api/health')).body, { projects: 2, runs: 1 });
});

test('a project of two git folders: the first is primary, names default to the folder name', async (t) => {
  const { s } = t.context;
  const a = gitRepo();
  const b = gitRepo();
  const r = await newProject(s, 'two folders', [{ path: a }, { path: b, name: 'lib' }]);
  t.is(r.status, 200, JSON.stringify(r.body));
  const p = r.body;
  t.is(typeof p.id, 'string');
  t.is(p.name, 'two folders');
  t.deepEqual(p.folders, [{ name: basename(realpathSync(a)), path: realpathSync(a) }, { name: 'lib', path: realpathSync(b) }]);
  t.is(p.primaryFolder, basename(realpathSync(a)));
  const listed = ((await s.get('/api/projects')).body as { id: string }[]).find((x) => x.id === p.id);
  t.deepEqual(listed, p);
  const one = await s.get(`/api/projects/${p.id}`);
  t.is(one.status, 200);
  t.deepEqual(one.body, p);
});

test('a subfolder of a repository is stored as the repository top folder', async (t) => {
  const { s } = t.context;
  const repo = gitRepo({ 'src/a.ts': 'x\n' });
  const r = await newProject(s, 'from a subfolder', [{ path: join(repo, 'src') }]);
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.folders[0].path, realpathSync(repo));
});

test('a folder that is not a git folder, or does not exist, is 400 and no project is made', async (t) => {
  const { s } = t.context;
  const plain = tempDir('svc-plain-');
  const notGit = await newProject(s, 'not git', [{ path: plain }]);
  t.is(notGit.status, 400);
  t.regex(notGit.body.detail, /git/);
  const missing = await newProject(s, 'missing', [{ path: join(plain, 'nope') }]);
  t.is(missing.status, 400);
  t.regex(missing.body.detail, /does not exist/);
  const mixed = await newProject(s, 'mixed', [{ path: gitRepo() }, { path: plain }]);
  t.is(mixed.status, 400);
  const names = ((await s.get('/api/projects')).body as { name: string }[]).map((p) => p.name);
  for (const n of ['not git', 'missing', 'mixed']) t.false(names.includes(n), n);
});

test('a project needs a folder; names must be unique (409), and so must folders and their names', async (t) => {
  const { s } = t.context;
  const none = await newProject(s, 'empty', []);
  t.is(none.status, 400);
  t.regex(none.body.detail, /folder/);
  t.is((await newProject(s, 'unique', [{ path: gitRepo() }])).status, 200);
  const dup = await newProject(s, 'unique', [{ path: gitRepo() }]);
  t.is(dup.status, 409);
  t.regex(dup.body.detail, /unique/);
  const repo = gitRepo();
  t.is((await newProject(s, 'same folder twice', [{ path: repo }, { path: repo, name: 'other' }])).status, 409);
  t.is((await newProject(s, 'same name twice', [{ path: gitRepo(), name: 'x' }, { path: gitRepo(), name: 'x' }])).status, 409);
});

test('PATCH renames a project and chooses its default workflow', async (t) => {
  const { s } = t.context;
  const id = (await newProject(s, 'to rename', [{ path: gitRepo() }])).body.id as string;
  const renamed = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ name: 'renamed' }));
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.like(renamed.body, { id, name: 'renamed' });
  t.is((await s.get(`/api/projects/${id}`)).body.name, 'renamed');
  const taken = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ name: 'demo' }));
  t.is(taken.status, 409);
  const wf = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ defaultWorkflow: 'linear' }));
  t.is(wf.status, 200, JSON.stringify(wf.body));
  t.is(wf.body.defaultWorkflow, 'linear');
  const run = await s.post('/api/runs', { project: id, goal: 'default', start: false });
  t.is((await s.get(`/api/runs/${run.body.runId}`)).body.workflowName, 'linear');
  const unknown = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ defaultWorkflow: 'nonesuch' }));
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /nonesuch/);
  t.is((await s.get(`/api/projects/${id}`)).body.defaultWorkflow, 'linear');
});

test('folders are added and removed; a duplicate name is 409, the last folder stays, an unknown one is 404', async (t) => {
  const { s } = t.context;
  const first = gitRepo();
  const id = (await newProject(s, 'folders', [{ path: first }])).body.id as string;
  const added = await s.post(`/api/projects/${id}/folders`, { path: gitRepo(), name: 'extra' });
  t.is(added.status, 200, JSON.stringify(added.body));
  t.deepEqual(added.body.folders.map((f: { name: string }) => f.name), [basename(realpathSync(first)), 'extra']);
  const dup = await s.post(`/api/projects/${id}/folders`, { path: gitRepo(), name: 'extra' });
  t.is(dup.status, 409);
  const notGit = await s.post(`/api/projects/${id}/folders`, { path: tempDir('svc-plain-'), name: 'plain' });
  t.is(notGit.status, 400);
  const removed = await s.send('DELETE', `/api/projects/${id}/folders/extra`);
  t.is(removed.status, 200, JSON.stringify(removed.body));
  t.deepEqual(removed.body.folders.map((f: { name: string }) => f.name), [basename(realpathSync(first))]);
  const last = await s.send('DELETE', `/api/projects/${id}/folders/${encodeURIComponent(basename(realpathSync(first)))}`);
  t.is(last.status, 409);
  t.regex(last.body.detail, /at least one folder/);
  t.is((await s.send('DELETE', `/api/projects/${id}/folders/extra`)).status, 404);
  t.is((await s.get(`/api/projects/${id}`)).body.folders.length, 1);
});

test('an unknown project id is 404 on every project route', async (t) => {
  const { s } = t.context;
  const answers = [
    await s.get('/api/projects/nope'),
    await s.send('PATCH', '/api/projects/nope', JSON.stringify({ name: 'x' })),
    await s.post('/api/projects/nope/folders', { path: gitRepo() }),
    await s.send('DELETE', '/api/projects/nope/folders/x'),
  ];
  for (const a of answers) {
    t.is(a.status, 404);
    t.regex(a.body.detail, /nope/);
  }
});

test('a folder name that is not one plain path segment is 400, on a new project and on an added folder', async (t) => {
  const { s } = t.context;
  for (const name of ['../escape', 'a/b', '..', '.', ' padded', 'back\\slash']) {
    const r = await newProject(s, `bad folder name ${name.length}${name.charCodeAt(0)}`, [{ path: gitRepo(), name }]);
    t.is(r.status, 400, `${JSON.stringify(name)}: ${JSON.stringify(r.body)}`);
    t.regex(r.body.detail, /folder name/);
    const added = await s.post(`/api/projects/${s.projectId}/folders`, { path: gitRepo(), name });
    t.is(added.status, 400, JSON.stringify(name));
  }
  t.is((await s.get(`/api/projects/${s.projectId}`)).body.folders.length, 1);
});

test('an unknown field on POST /api/projects/{id}/folders is 400, not silently dropped', async (t) => {
  const { s } = t.context;
  const r = await s.post(`/api/projects/${s.projectId}/folders`, { path: gitRepo(), nmae: 'typo' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /nmae/);
  t.is((await s.get(`/api/projects/${s.projectId}`)).body.folders.length, 1);
});

test('a relative folder path is 400: the server has no folder a client could mean', async (t) => {
  const { s } = t.context;
  for (const path of ['repo', './repo', '~/code/repo']) {
    const r = await newProject(s, `relative ${path.length}`, [{ path }]);
    t.is(r.status, 400, path);
    t.regex(r.body.detail, /absolute/);
    t.is((await s.post(`/api/projects/${s.projectId}/folders`, { path, name: 'rel' })).status, 400);
  }
});

test('a PATCH that is refused changes nothing, even when another of its fields was fine', async (t) => {
  const { s } = t.context;
  const id = (await newProject(s, 'all or nothing', [{ path: gitRepo() }])).body.id as string;
  const before = (await s.get(`/api/projects/${id}`)).body;
  const r = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ name: 'half done', defaultWorkflow: 'nonesuch' }));
  t.is(r.status, 400);
  t.deepEqual((await s.get(`/api/projects/${id}`)).body, before);
  const taken = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ name: 'demo', defaultWorkflow: 'linear' }));
  t.is(taken.status, 409);
  t.deepEqual((await s.get(`/api/projects/${id}`)).body, before);
  const nothing = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({}));
  t.is(nothing.status, 200);
  t.deepEqual(nothing.body, before);
  const both = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ name: 'both done', defaultWorkflow: 'linear' }));
  t.is(both.status, 200);
  t.like(both.body, { name: 'both done', defaultWorkflow: 'linear' });
});

test('PATCH primaryFolder chooses the primary folder: workflows are read from it; removing it makes the first one primary', async (t) => {
  const { s } = t.context;
  const first = gitRepo();
  // only the second folder holds a project workflow, so the workflow list shows which folder is primary
  const second = gitRepo({ 'README.md': '# two\n', '.svc/workflows/only-second.dot': 'digraph only_second {\n start [kind=start]\n w [kind=agent, prompt="x"]\n done [kind=exit]\n start -> w -> done\n}\n' });
  const made = await newProject(s, 'primary choice', [{ path: first, name: 'one' }, { path: second, name: 'two' }]);
  t.is(made.status, 200, JSON.stringify(made.body));
  const id = made.body.id as string;
  const names = async () => ((await s.get(`/api/workflows?project=${id}`)).body.workflows as { name: string }[]).map((w) => w.name);
  t.is((await s.get(`/api/projects/${id}`)).body.primaryFolder, 'one');
  t.false((await names()).includes('only-second'));
  const chosen = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ primaryFolder: 'two' }));
  t.is(chosen.status, 200, JSON.stringify(chosen.body));
  t.is(chosen.body.primaryFolder, 'two');
  t.deepEqual(chosen.body.folders.map((f: { name: string }) => f.name), ['one', 'two'], 'the order of folders is kept');
  t.true((await names()).includes('only-second'));
  // a default workflow is checked against the primary folder the same PATCH leaves
  const both = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ primaryFolder: 'one', defaultWorkflow: 'only-second' }));
  t.is(both.status, 400);
  t.is((await s.get(`/api/projects/${id}`)).body.primaryFolder, 'two', 'a refused PATCH changes nothing');
  const unknown = await s.send('PATCH', `/api/projects/${id}`, JSON.stringify({ primaryFolder: 'three' }));
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /three/);
  t.is((await s.send('DELETE', `/api/projects/${id}/folders/two`)).status, 200);
  t.is((await s.get(`/api/projects/${id}`)).body.primaryFolder, 'one');
});
