import test, { type ExecutionContext } from 'ava';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import { Router } from '@koa/router';
import { openStore } from '../../journal/store.js';
import { workflowRoutes } from '../../lib/http/routes/workflows.js';
import { createCatalog, type ProjectRef } from '../../lib/workflows/catalog.js';
import { isolateHome, tempDir, tinyWorkflow, write } from './helpers.js';

isolateHome();

interface Server {
  readonly base: string;
  readonly project: ProjectRef;
}

const serve = async (t: ExecutionContext): Promise<Server> => {
  const home = tempDir(t);
  const store = openStore(join(tempDir(t), 'db'));
  const catalog = createCatalog({ home, store });
  const project: ProjectRef = { primaryFolderPath: tempDir(t), defaultWorkflow: 'ticket' };
  const router = new Router();
  workflowRoutes(router, { catalog, resolveProject: (id) => (id === 'p1' ? project : undefined) });
  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    await new Promise((r) => server.close(r));
    await catalog.close();
    await store.close();
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, project };
};

const json = async (res: Response): Promise<any> => JSON.parse(await res.text());

const put = (base: string, path: string, body: string, contentType = 'application/json') =>
  fetch(base + path, { method: 'PUT', headers: { 'content-type': contentType }, body });

test('GET /api/workflows lists the project workflows', async (t) => {
  const { base } = await serve(t);
  const res = await fetch(`${base}/api/workflows?project=p1`);
  t.is(res.status, 200);
  const body = await json(res);
  t.deepEqual(body.workflows.map((w: any) => [w.name, w.standing, w.origin]), [
    ['default', 'alternative', 'shipped'], ['epic', 'alternative', 'shipped'], ['ticket', 'default', 'shipped'],
  ]);
  t.deepEqual(body.workflows[2].inputs, ['ticket_url']);
});

test('GET /api/workflows needs a known project', async (t) => {
  const { base } = await serve(t);
  const missing = await fetch(`${base}/api/workflows`);
  t.is(missing.status, 400);
  t.regex((await json(missing)).detail, /project/);
  const unknown = await fetch(`${base}/api/workflows?project=nope`);
  t.is(unknown.status, 404);
  t.deepEqual(await json(unknown), { detail: 'unknown project: nope' });
  const twice = await fetch(`${base}/api/workflows?project=p1&project=p1`);
  t.is(twice.status, 400);
});

test('GET /api/workflows/:name reads a workflow with its version and steps', async (t) => {
  const { base } = await serve(t);
  const res = await fetch(`${base}/api/workflows/default?project=p1`);
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.name, 'default');
  t.is(body.origin, 'shipped');
  t.regex(body.version, /^[0-9a-f]{12}$/);
  t.true(body.source.startsWith('// The default workflow'));
  t.deepEqual(body.steps.find((s: any) => s.id === 'implement').settings.persona, { value: 'implementer', source: 'node' });
  const unknown = await fetch(`${base}/api/workflows/nope?project=p1`);
  t.is(unknown.status, 404);
  t.deepEqual(await json(unknown), { detail: 'unknown workflow: nope' });
  const badName = await fetch(`${base}/api/workflows/Bad%20Name?project=p1`);
  t.is(badName.status, 400);
  t.regex((await json(badName)).detail, /workflow name/);
  t.is((await fetch(`${base}/api/workflows/default?project=zzz`)).status, 404);
});

test('GET /api/workflows/:name/validation answers loads false as a normal 200', async (t) => {
  const { base, project } = await serve(t);
  write(project.primaryFolderPath, '.svc/workflows/broken.dot', 'digraph { s [kind=start] e [kind=exit] s -> e -> x }');
  const res = await fetch(`${base}/api/workflows/broken/validation?project=p1`);
  t.is(res.status, 200);
  t.deepEqual(await json(res), {
    workflow: 'broken', origin: 'project', loads: false,
    errors: [{ node: 'x', attribute: null, message: 'route e -> x: node x is not declared (give it a node statement with a kind)' }],
    warnings: [{ node: 'e', attribute: null, message: 'routes out of an exit node are never taken' }],
  });
  const ok = await json(await fetch(`${base}/api/workflows/ticket/validation?project=p1`));
  t.deepEqual(ok, { workflow: 'ticket', origin: 'shipped', loads: true, errors: [], warnings: [] });
  t.is((await fetch(`${base}/api/workflows/nope/validation?project=p1`)).status, 404);
});

test('PUT saves a custom workflow and answers its validation; DELETE removes it', async (t) => {
  const { base } = await serve(t);
  const res = await put(base, '/api/workflows/ticket?project=p1', JSON.stringify({ source: tinyWorkflow('my ticket') }));
  t.is(res.status, 200);
  t.deepEqual(await json(res), { workflow: 'ticket', origin: 'custom', loads: true, errors: [], warnings: [] });
  const read = await json(await fetch(`${base}/api/workflows/ticket?project=p1`));
  t.is(read.origin, 'custom');
  t.is(read.source, tinyWorkflow('my ticket'));
  const del = await fetch(`${base}/api/workflows/ticket`, { method: 'DELETE' });
  t.is(del.status, 204);
  t.is((await json(await fetch(`${base}/api/workflows/ticket?project=p1`))).origin, 'shipped');
  const again = await fetch(`${base}/api/workflows/ticket`, { method: 'DELETE' });
  t.is(again.status, 404);
  t.regex((await json(again)).detail, /only custom workflows can be deleted/);
});

test('PUT of a digraph with errors saves it and answers loads false', async (t) => {
  const { base } = await serve(t);
  const res = await put(base, '/api/workflows/draft', JSON.stringify({ source: 'digraph { s [kind=start] }' }));
  t.is(res.status, 200);
  const body = await json(res);
  t.false(body.loads);
  t.is(body.origin, 'custom');
  t.is((await fetch(`${base}/api/workflows/draft?project=p1`)).status, 200);
});

test('PUT refuses bad input with 4xx and a detail', async (t) => {
  const { base } = await serve(t);
  const cases: ReadonlyArray<[string, string, number, RegExp]> = [
    ['/api/workflows/x', '{"source": ', 400, /not valid JSON/],
    ['/api/workflows/x', '', 400, /JSON body/],
    ['/api/workflows/x', '[]', 400, /JSON object/],
    ['/api/workflows/x', '"digraph {}"', 400, /JSON object/],
    ['/api/workflows/x', '{}', 400, /source is required/],
    ['/api/workflows/x', '{"source": 42}', 400, /source must be a string \(got number\)/],
    ['/api/workflows/x', '{"source": "digraph {}", "extra": 1}', 400, /unknown field extra/],
    ['/api/workflows/x', '{"source": "not a graph"}', 400, /not saved: not a DOT file/],
    ['/api/workflows/Bad_Name', JSON.stringify({ source: tinyWorkflow('x') }), 400, /workflow name/],
    ['/api/workflows/x?project=nope', JSON.stringify({ source: tinyWorkflow('x') }), 404, /unknown project: nope/],
  ];
  for (const [path, body, status, detail] of cases) {
    const res = await put(base, path, body);
    t.is(res.status, status, `${path} ${body}`);
    t.regex((await json(res)).detail, detail, `${path} ${body}`);
  }
  t.is((await fetch(`${base}/api/workflows/x?project=p1`)).status, 404, 'nothing was saved');
});

test('PUT refuses a body that is not declared as JSON', async (t) => {
  const { base } = await serve(t);
  const res = await put(base, '/api/workflows/x', JSON.stringify({ source: tinyWorkflow('x') }), 'text/plain');
  t.is(res.status, 415);
  t.regex((await json(res)).detail, /application\/json/);
});

test('PUT refuses a body over 1 MiB', async (t) => {
  const { base } = await serve(t);
  const res = await put(base, '/api/workflows/big', JSON.stringify({ source: 'x'.repeat(1024 * 1024 + 10) }));
  t.is(res.status, 413);
});

test('DELETE refuses a bad name', async (t) => {
  const { base } = await serve(t);
  for (const name of ['..%2Fetc', 'Bad', '-x']) {
    const res = await fetch(`${base}/api/workflows/${name}`, { method: 'DELETE' });
    t.is(res.status, 400, name);
    t.regex((await json(res)).detail, /workflow name/, name);
  }
});

test('POST /api/workflows/:name/validation checks a draft as that custom workflow without saving it', async (t) => {
  const { base, project } = await serve(t);
  const check = (path: string, body: string) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  // against the project's personas: one that does not exist is an error pinned to its node and attribute
  write(project.primaryFolderPath, '.svc/personas/helper.md', 'You help.\n');
  const draft = 'digraph d {\n start [kind=start]\n w [kind=agent, persona=nobody, prompt="x"]\n done [kind=exit]\n start -> w -> done\n}';
  const res = await check('/api/workflows/draft/validation?project=p1', JSON.stringify({ source: draft }));
  t.is(res.status, 200);
  const body = await json(res);
  t.like(body, { workflow: 'draft', origin: 'custom', loads: false });
  t.like(body.errors[0], { node: 'w', attribute: 'persona' });
  const good = await json(await check('/api/workflows/draft/validation?project=p1', JSON.stringify({ source: draft.replace('nobody', 'helper') })));
  t.deepEqual(good, { workflow: 'draft', origin: 'custom', loads: true, errors: [], warnings: [] });
  // text that is not DOT is a normal answer here (the editor shows where it breaks), not a refusal
  const notDot = await json(await check('/api/workflows/draft/validation', JSON.stringify({ source: 'digraph {' })));
  t.false(notDot.loads);
  t.true(notDot.errors.length > 0);
  t.is((await fetch(`${base}/api/workflows/draft?project=p1`)).status, 404, 'nothing was saved');
  for (const [path, body, status] of [
    ['/api/workflows/draft/validation', JSON.stringify({ sauce: draft }), 400],
    ['/api/workflows/draft/validation', JSON.stringify({ source: 3 }), 400],
    ['/api/workflows/bad%20name/validation', JSON.stringify({ source: draft }), 400],
    ['/api/workflows/draft/validation?project=nope', JSON.stringify({ source: draft }), 404],
  ] as const) {
    const r = await check(path, body);
    t.is(r.status, status, path + body);
    t.is(typeof (await json(r)).detail, 'string');
  }
});
