import test, { type ExecutionContext } from 'ava';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { openStore } from '../../journal/store.js';
import { createCatalog, CUSTOM_WORKFLOWS_DB, type Catalog, type ProjectRef } from '../../lib/workflows/catalog.js';
import { eventually, isolateHome, tempDir, tinyWorkflow, write } from './helpers.js';

isolateHome();

interface World {
  readonly catalog: Catalog;
  readonly home: string;
  readonly project: ProjectRef;
  readonly dbPath: string;
}

const world = (t: ExecutionContext, defaultHarness?: 'codex'): World => {
  const home = tempDir(t, 'svc-wf-cat-home-');
  const dbPath = join(tempDir(t, 'svc-wf-cat-db-'), 'db');
  const store = openStore(dbPath);
  const catalog = createCatalog({ home, store, ...(defaultHarness ? { defaultHarness: () => defaultHarness } : {}) });
  t.teardown(async () => {
    await catalog.close();
    await store.close();
  });
  return { catalog, home, dbPath, project: { primaryFolderPath: tempDir(t, 'svc-wf-cat-proj-'), defaultWorkflow: 'default' } };
};

const originOf = (w: World, name: string) => w.catalog.list(w.project).find((x) => x.name === name)?.origin;
const descriptionOf = (w: World, name: string) => w.catalog.list(w.project).find((x) => x.name === name)?.description;

test('shipped workflows are listed with origin, standing, inputs and defaults', (t) => {
  const w = world(t);
  const list = w.catalog.list(w.project);
  t.deepEqual(list.map((x) => [x.name, x.origin, x.standing]), [
    ['default', 'shipped', 'default'], ['epic', 'shipped', 'alternative'], ['ticket', 'shipped', 'alternative'],
  ]);
  const ticket = list.find((x) => x.name === 'ticket');
  t.deepEqual(ticket?.inputs, ['ticket_url']);
  t.deepEqual(ticket?.defaults, {});
  t.true((ticket?.description ?? '').length > 10);
});

test('precedence: custom > project > home > shipped, falling back as each is removed', async (t) => {
  const w = world(t);
  const homeFile = write(w.home, 'workflows/default.dot', tinyWorkflow('from home'));
  const projectFile = write(w.project.primaryFolderPath, '.svc/workflows/default.dot', tinyWorkflow('from project'));
  t.is(originOf(w, 'default'), 'project');
  t.is(descriptionOf(w, 'default'), 'from project');
  t.true(isRight(w.catalog.saveCustom('default', tinyWorkflow('custom'))));
  t.is(originOf(w, 'default'), 'custom');
  t.true(w.catalog.removeCustom('default'));
  t.is(originOf(w, 'default'), 'project');
  rmSync(projectFile);
  t.true(await eventually(() => originOf(w, 'default') === 'home'), 'home after the project file is removed');
  rmSync(homeFile);
  t.true(await eventually(() => originOf(w, 'default') === 'shipped'), 'shipped after the home file is removed');
});

test('files on disk: added, edited and removed are seen without a restart', async (t) => {
  const w = world(t);
  t.is(originOf(w, 'nightly'), undefined); // starts the watchers; .svc does not exist yet
  await new Promise((r) => setTimeout(r, 300));
  const file = write(w.project.primaryFolderPath, '.svc/workflows/nightly.dot', tinyWorkflow('v1'));
  t.true(await eventually(() => descriptionOf(w, 'nightly') === 'v1'), 'added');
  write(w.project.primaryFolderPath, '.svc/workflows/nightly.dot', tinyWorkflow('v2'));
  t.true(await eventually(() => descriptionOf(w, 'nightly') === 'v2'), 'edited');
  write(w.home, 'workflows/homely.dot', tinyWorkflow('h1'));
  t.true(await eventually(() => originOf(w, 'homely') === 'home'), 'added in home');
  rmSync(file);
  t.true(await eventually(() => originOf(w, 'nightly') === undefined), 'removed');
});

test('a project folder that does not exist yet is watched from its nearest existing ancestor', async (t) => {
  const w = world(t);
  const project: ProjectRef = { primaryFolderPath: join(tempDir(t), 'not', 'yet'), defaultWorkflow: 'default' };
  t.deepEqual(w.catalog.list(project).map((x) => x.origin), ['shipped', 'shipped', 'shipped']);
  await new Promise((r) => setTimeout(r, 300));
  write(project.primaryFolderPath, '.svc/workflows/default.dot', tinyWorkflow('late'));
  t.true(await eventually(() => w.catalog.list(project).find((x) => x.name === 'default')?.origin === 'project'));
});

test('a cached workflow is dropped when its prompt file changes', async (t) => {
  const w = world(t);
  const dir = join(w.project.primaryFolderPath, '.svc/workflows');
  write(dir, 'p.dot', 'digraph { s [kind=start] a [kind=agent, prompt="@prompts/a.md"] e [kind=exit] s -> a -> e }');
  write(dir, 'prompts/a.md', 'first {{goal}}');
  const version = () => w.catalog.read(w.project, 'p')?.version;
  const first = version();
  t.truthy(first);
  t.is(w.catalog.read(w.project, 'p')?.source.includes('first {{goal}}'), true);
  await new Promise((r) => setTimeout(r, 300)); // the watcher is ready and the view cached by now
  t.is(version(), first);
  write(dir, 'prompts/a.md', 'second {{goal}}');
  t.true(await eventually(() => version() !== first));
  t.true(w.catalog.read(w.project, 'p')?.source.includes('second {{goal}}'));
});

test('files whose names are not workflow names are ignored', (t) => {
  const w = world(t);
  write(w.project.primaryFolderPath, '.svc/workflows/My Flow.dot', tinyWorkflow('x'));
  write(w.project.primaryFolderPath, '.svc/workflows/notes.txt', 'hello');
  t.deepEqual(w.catalog.list(w.project).map((x) => x.name), ['default', 'epic', 'ticket']);
});

test('load: Right for a workflow that loads, Left with the validation for one that does not, undefined for none', (t) => {
  const w = world(t);
  write(w.home, 'workflows/broken.dot', 'digraph { s [kind=start] }');
  const ok = w.catalog.load(w.project, 'default');
  t.true(ok !== undefined && isRight(ok) && ok.right.name === 'default' && ok.right.origin === 'shipped');
  const broken = w.catalog.load(w.project, 'broken');
  t.true(broken !== undefined && isLeft(broken));
  if (broken && isLeft(broken)) {
    t.is(broken.left.origin, 'home');
    t.false(broken.left.loads);
    t.deepEqual(broken.left.errors, [
      { node: null, attribute: null, message: 'no exit node (declare a node with kind=exit)' },
      { node: 's', attribute: null, message: 'no route out of this node (only an exit node ends a run)' },
    ]);
  }
  t.is(w.catalog.load(w.project, 'nope'), undefined);
  t.is(w.catalog.validate(w.project, 'nope'), undefined);
  t.is(w.catalog.read(w.project, 'nope'), undefined);
  t.deepEqual(w.catalog.validate(w.project, 'broken'), broken && isLeft(broken) ? broken.left : undefined);
});

test('a workflow that does not load is still listed and readable', (t) => {
  const w = world(t);
  write(w.home, 'workflows/broken.dot', 'digraph { description="half done" s [kind=start] }');
  write(w.home, 'workflows/garbage.dot', 'not dot at all');
  t.is(descriptionOf(w, 'broken'), 'half done');
  t.is(descriptionOf(w, 'garbage'), '');
  const read = w.catalog.read(w.project, 'garbage');
  t.is(read?.source, 'not dot at all');
  t.deepEqual(read?.steps, []);
  t.regex(read?.version ?? '', /^[0-9a-f]{12}$/);
});

test('read: inlined source, version and each step with its settings and sources', (t) => {
  const w = world(t, 'codex');
  const read = w.catalog.read(w.project, 'default');
  t.is(read?.origin, 'shipped');
  t.false(read?.source.includes('@prompts/'));
  const plan = read?.steps.find((s) => s.id === 'plan');
  t.deepEqual(plan?.settings, {
    persona: { value: 'planner', source: 'node' },
    harness: { value: 'codex', source: 'settings' },
    model: { value: null, source: 'shipped' },
    tools: { value: 'read-only', source: 'persona' },
  });
  t.deepEqual(plan?.toolClasses, ['read']);
  const stuck = read?.steps.find((s) => s.id === 'stuck');
  t.is(stuck?.kind, 'gate');
  t.is(stuck?.settings, null);
});

test('personas: project > home > shipped, per project', (t) => {
  const w = world(t);
  t.is(w.catalog.persona(w.project, 'planner')?.origin, 'shipped');
  write(w.home, 'personas/planner.md', '---\nmodel: home-model\n---\nHome planner.');
  t.is(w.catalog.persona(w.project, 'planner')?.origin, 'home');
  write(w.project.primaryFolderPath, '.svc/personas/planner.md', '---\ntools: edit\nharness: opencode\n---\nProject planner.');
  const p = w.catalog.persona(w.project, 'planner');
  t.deepEqual(p, { name: 'planner', origin: 'project', prompt: 'Project planner.', harness: 'opencode', tools: 'edit' });
  const other: ProjectRef = { primaryFolderPath: tempDir(t), defaultWorkflow: 'default' };
  t.is(w.catalog.persona(other, 'planner')?.origin, 'home');
  t.is(w.catalog.persona(w.project, 'nobody'), undefined);
});

test('a persona known in one project only: the workflow loads there and not elsewhere', (t) => {
  const w = world(t);
  write(w.project.primaryFolderPath, '.svc/personas/tester.md', 'You test things.');
  write(w.home, 'workflows/qa.dot', tinyWorkflow('qa', 'persona=tester'));
  t.true(w.catalog.validate(w.project, 'qa')?.loads);
  const other: ProjectRef = { primaryFolderPath: tempDir(t), defaultWorkflow: 'default' };
  const v = w.catalog.validate(other, 'qa');
  t.false(v?.loads);
  t.deepEqual(v?.errors, [{ node: null, attribute: 'persona', message: 'unknown persona tester (known: implementer, planner, reviewer)' }]);
});

test('a persona file that does not load makes the workflows naming it fail, with its problem', (t) => {
  const w = world(t);
  write(w.home, 'personas/sloppy.md', '---\ntools: all\n---\nHi.');
  write(w.home, 'workflows/s.dot', tinyWorkflow('s', 'persona=sloppy'));
  t.is(w.catalog.persona(w.project, 'sloppy'), undefined);
  t.deepEqual(w.catalog.validate(w.project, 's')?.errors, [
    { node: null, attribute: 'persona', message: 'persona sloppy does not load: unknown tools value all (use one of read-only, edit, full)' },
  ]);
});

test('saveCustom: refuses bad names and text that is not DOT; saves a broken digraph with its diagnostics', (t) => {
  const w = world(t);
  for (const name of ['', 'Upper', '-x', 'a b', 'x'.repeat(65), '../etc', 'é']) {
    const r = w.catalog.saveCustom(name, tinyWorkflow('x'));
    t.true(isLeft(r) && r.left._tag === 'Invalid', name);
  }
  const notDot = w.catalog.saveCustom('nope', 'hello there');
  t.true(isLeft(notDot) && notDot.left._tag === 'Invalid' && notDot.left.detail.startsWith('not saved: not a DOT file: line 1'));
  t.is(w.catalog.read(w.project, 'nope'), undefined);
  const broken = w.catalog.saveCustom('half', 'digraph { s [kind=start] }');
  t.true(isRight(broken) && !broken.right.loads && broken.right.origin === 'custom' && broken.right.workflow === 'half');
  t.is(originOf(w, 'half'), 'custom');
  t.false(w.catalog.removeCustom('nothing-here'));
  t.false(w.catalog.removeCustom('ticket'), 'a shipped workflow is not custom');
  t.is(originOf(w, 'ticket'), 'shipped');
});

test('custom workflows live in the store (key = name, value = source) and survive a restart', async (t) => {
  const home = tempDir(t);
  const dbPath = join(tempDir(t), 'db');
  const project: ProjectRef = { primaryFolderPath: tempDir(t), defaultWorkflow: 'mine' };
  const first = openStore(dbPath);
  const a = createCatalog({ home, store: first });
  const saved = a.saveCustom('mine', tinyWorkflow('mine'));
  t.true(isRight(saved) && saved.right.loads);
  t.is(first.db<string>(CUSTOM_WORKFLOWS_DB).get('mine'), tinyWorkflow('mine'));
  await a.close();
  await first.close();
  const second = openStore(dbPath);
  const b = createCatalog({ home, store: second });
  t.teardown(async () => { await b.close(); await second.close(); });
  const item = b.list(project).find((x) => x.name === 'mine');
  t.deepEqual(item, { name: 'mine', description: 'mine', standing: 'default', origin: 'custom', inputs: [], defaults: {} });
});

test('saveCustom validates against the given project personas', (t) => {
  const w = world(t);
  write(w.project.primaryFolderPath, '.svc/personas/tester.md', 'You test things.');
  const withProject = w.catalog.saveCustom('qa', tinyWorkflow('qa', 'persona=tester'), w.project);
  t.true(isRight(withProject) && withProject.right.loads);
  const without = w.catalog.saveCustom('qa', tinyWorkflow('qa', 'persona=tester'));
  t.true(isRight(without) && !without.right.loads);
});
