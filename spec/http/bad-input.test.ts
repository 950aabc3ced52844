import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { request } from 'node:http';
import { isRefusal } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';

// A table of bad requests across the routes: each is a 4xx with a detail, never a 500, and the
// server goes on answering with everything it held before.

const test = anyTest as TestFn<{ s: TestServer; runs: string[] }>;

test.before(async (t) => {
  const s = await testServer();
  const runs: string[] = [];
  for (const goal of ['kept one', 'kept two']) {
    const r = await s.post('/api/runs', { project: s.projectId, goal, workflow: 'linear', start: false });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    runs.push(r.body.runId);
  }
  t.context = { s, runs };
});
test.after.always(async (t) => {
  await t.context.s?.close();
});

interface Row {
  readonly name: string;
  readonly method: string;
  /** `{run}` stands for a run the server holds, `{project}` for its project */
  readonly path: string;
  readonly body?: string | object;
  readonly headers?: Record<string, string>;
  readonly status: number;
  /** what the detail must say, where it matters */
  readonly detail?: RegExp;
}

const json = (v: unknown) => JSON.stringify(v);
const NUL_TEXT = 'a\u0000b';
const P = '{project}';

const TABLE: readonly Row[] = [
  // the worker pool (docs/workers.md)
  { name: 'a worker token with no name', method: 'POST', path: '/api/workers/tokens', body: {}, status: 400, detail: /name/ },
  { name: 'a worker token named by a number', method: 'POST', path: '/api/workers/tokens', body: { name: 5 }, status: 400 },
  { name: 'a worker token with an empty name', method: 'POST', path: '/api/workers/tokens', body: { name: '' }, status: 400, detail: /worker name/ },
  { name: 'a worker token whose name has a slash', method: 'POST', path: '/api/workers/tokens', body: { name: 'a/b' }, status: 400, detail: /worker name/ },
  { name: 'a worker token with an unknown field', method: 'POST', path: '/api/workers/tokens', body: { name: 'desk', slots: 2 }, status: 400, detail: /slots/ },
  { name: 'a worker token as a JSON array', method: 'POST', path: '/api/workers/tokens', body: '[]', status: 400 },
  { name: 'revoking a worker id of the wrong shape', method: 'POST', path: '/api/workers/W!/revoke', status: 400, detail: /worker id/ },
  { name: 'revoking an unknown worker', method: 'POST', path: '/api/workers/wnope/revoke', status: 404, detail: /unknown worker/ },
  { name: 'moving an unknown run', method: 'POST', path: '/api/runs/r-nope/move', body: { to: 'here' }, status: 404, detail: /unknown run/ },
  { name: 'moving a run with no to', method: 'POST', path: '/api/runs/{run}/move', body: {}, status: 400, detail: /to/ },
  { name: 'moving a run to a number', method: 'POST', path: '/api/runs/{run}/move', body: { to: 5 }, status: 400, detail: /to/ },
  { name: 'moving a run to a worker id of the wrong shape', method: 'POST', path: '/api/runs/{run}/move', body: { to: 'W!' }, status: 400, detail: /worker id/ },
  { name: 'moving a run to an unknown worker', method: 'POST', path: '/api/runs/{run}/move', body: { to: 'wnope' }, status: 400, detail: /not a worker of this hub/ },
  { name: 'moving a run with an unknown field', method: 'POST', path: '/api/runs/{run}/move', body: { to: 'here', slots: 2 }, status: 400, detail: /slots/ },
  { name: 'GET /api/workers with a query', method: 'GET', path: '/api/workers?state=online', status: 400, detail: /state/ },
  // malformed and mistyped bodies
  { name: 'malformed JSON on POST /api/runs', method: 'POST', path: '/api/runs', body: '{"project": ', status: 400 },
  { name: 'a JSON array as the body', method: 'POST', path: '/api/runs', body: '[]', status: 400 },
  { name: 'JSON null as the body', method: 'POST', path: '/api/runs', body: 'null', status: 400 },
  { name: 'a JSON string as the body', method: 'POST', path: '/api/runs', body: '"go"', status: 400 },
  { name: 'goal as a number', method: 'POST', path: '/api/runs', body: { project: P, goal: 5 }, status: 400 },
  { name: 'project as an object', method: 'POST', path: '/api/runs', body: { project: { id: 'x' }, goal: 'g' }, status: 400 },
  { name: 'start as a string', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', start: 'yes' }, status: 400 },
  { name: 'inputs with a number value', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', inputs: { ticket: 1 } }, status: 400 },
  { name: 'an unknown field on POST /api/runs', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', colour: 'red' }, status: 400 },
  { name: 'an empty goal', method: 'POST', path: '/api/runs', body: { project: P, goal: '' }, status: 400 },
  { name: 'an empty project', method: 'POST', path: '/api/runs', body: { project: '', goal: 'g' }, status: 400 },
  { name: 'an empty title', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', title: '' }, status: 400 },
  { name: 'a workflow name that is a path', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', workflow: '../../etc/passwd' }, status: 400 },
  { name: 'an empty body on POST /api/runs', method: 'POST', path: '/api/runs', body: '', status: 400 },
  { name: 'an empty body on POST /api/projects', method: 'POST', path: '/api/projects', body: '', status: 400 },
  { name: 'an empty workflow', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', workflow: '' }, status: 400 },
  { name: 'an unknown field on POST /api/projects', method: 'POST', path: '/api/projects', body: { name: 'p', folders: [], owner: 'me' }, status: 400 },
  { name: 'folders not a list', method: 'POST', path: '/api/projects', body: { name: 'p', folders: '/tmp' }, status: 400 },
  { name: 'an empty project name', method: 'POST', path: '/api/projects', body: { name: '', folders: [{ path: '/tmp' }] }, status: 400 },
  { name: 'a folder with an empty path', method: 'POST', path: '/api/projects', body: { name: 'p', folders: [{ path: '' }] }, status: 400 },
  { name: 'malformed JSON on POST /api/projects', method: 'POST', path: '/api/projects', body: '{name', status: 400 },
  { name: 'an empty name on PATCH /api/projects/{id}', method: 'PATCH', path: `/api/projects/${P}`, body: { name: '' }, status: 400 },
  { name: 'an unknown field on PATCH /api/projects/{id}', method: 'PATCH', path: `/api/projects/${P}`, body: { colour: 'red' }, status: 400 },
  { name: 'a bad setting change', method: 'PUT', path: '/api/settings', body: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 'many' } }, status: 400 },
  // a NUL byte, which spawn, git, paths and headers cannot take: refused wherever it sits (issue 33)
  { name: 'a NUL byte in a goal', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g\u0000h', start: false }, status: 400, detail: /^goal holds a NUL byte/ },
  { name: 'a NUL byte in a title', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', title: 't\u0000', start: false }, status: 400, detail: /^title holds a NUL byte/ },
  { name: 'a NUL byte in an input', method: 'POST', path: '/api/runs', body: { project: P, goal: 'g', inputs: { ticket: 'v\u0000' } }, status: 400, detail: /^inputs\.ticket holds a NUL byte/ },
  { name: 'a NUL byte in a field name', method: 'POST', path: '/api/runs', body: '{"project": "x", "goal": "g", "a\\u0000b": 1}', status: 400, detail: /^the name of a\\u0000b holds a NUL byte/ },
  { name: 'a NUL byte in a project name', method: 'POST', path: '/api/projects', body: { name: 'p\u0000', folders: [{ path: '/tmp' }] }, status: 400, detail: /^name holds a NUL byte/ },
  { name: 'a NUL byte in a folder path', method: 'POST', path: `/api/projects/${P}/folders`, body: { path: '/tmp/x\u0000y' }, status: 400, detail: /^path holds a NUL byte/ },
  { name: 'a NUL byte in a message', method: 'POST', path: '/api/runs/{run}/messages', body: { text: 'hi\u0000', delivery: 'Hold' }, status: 400, detail: /^text holds a NUL byte/ },
  { name: 'a NUL byte in a revised goal', method: 'POST', path: '/api/runs/{run}/goal', body: { goal: 'g\u0000' }, status: 400, detail: /^goal holds a NUL byte/ },
  { name: 'a NUL byte in a trigger goal', method: 'POST', path: '/api/triggers', body: { name: 'n', project: P, goal: 'g\u0000', source: { _tag: 'Schedule', cron: '0 9 * * *', timeZone: 'UTC' } }, status: 400, detail: /^goal holds a NUL byte/ },
  { name: 'a NUL byte in a list nested 20,000 levels deep', method: 'POST', path: '/api/runs', body: `{"project": "x", "goal": "g", "inputs": ${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}}`, status: 400 },
  // content type and size
  { name: 'text/plain on POST /api/runs', method: 'POST', path: '/api/runs', body: 'goal=x', headers: { 'content-type': 'text/plain' }, status: 415 },
  { name: 'form encoding on POST /api/projects', method: 'POST', path: '/api/projects', body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
  { name: 'a 2 MB body on POST /api/runs', method: 'POST', path: '/api/runs', body: json({ project: P, goal: 'x'.repeat(2 * 1024 * 1024) }), status: 413, detail: /larger than 1048576 bytes/ },
  { name: 'a body just over 1 MB on a control', method: 'POST', path: '/api/runs/{run}/control', body: json({ position: 'v1', action: 'Pause', reason: 'r'.repeat(1024 * 1024) }), status: 413, detail: /larger than 1048576 bytes/ },
  { name: 'JSON cut off on POST /api/runs', method: 'POST', path: '/api/runs', body: '{"project": "x", "goal": "g"', status: 400, detail: /^malformed JSON: / },
  { name: 'a trailing comma on POST /api/projects', method: 'POST', path: '/api/projects', body: '{"name": "p",}', status: 400, detail: /^malformed JSON: / },
  { name: 'only whitespace as the body', method: 'POST', path: '/api/runs', body: '   ', status: 400, detail: /^malformed JSON: / },
  { name: 'a __proto__ key in the body', method: 'POST', path: '/api/runs', body: '{"project": "x", "goal": "g", "__proto__": {"polluted": true}}', status: 400 },
  { name: 'an unknown content-encoding', method: 'POST', path: '/api/runs', body: '{}', headers: { 'content-encoding': 'zstd-nope' }, status: 415 },
  { name: 'gzip declared on a body that is not gzip', method: 'POST', path: '/api/runs', body: '{"goal": "g"}', headers: { 'content-encoding': 'gzip' }, status: 400 },
  // unknown ids
  { name: 'GET of an unknown run', method: 'GET', path: '/api/runs/r-nope', status: 404 },
  { name: 'detail of an unknown run', method: 'GET', path: '/api/runs/r-nope/detail', status: 404 },
  { name: 'thread of an unknown run', method: 'GET', path: '/api/runs/r-nope/thread', status: 404 },
  { name: 'history of an unknown run', method: 'GET', path: '/api/runs/r-nope/history', status: 404 },
  { name: 'log of an unknown run', method: 'GET', path: '/api/runs/r-nope/log', status: 404 },
  { name: 'control of an unknown run', method: 'POST', path: '/api/runs/r-nope/control', body: { position: 'v1', action: 'Pause' }, status: 404 },
  { name: 'goal of an unknown run', method: 'POST', path: '/api/runs/r-nope/goal', body: { goal: 'g' }, status: 404 },
  { name: 'message to an unknown run', method: 'POST', path: '/api/runs/r-nope/messages', body: { text: 'hi', delivery: 'Hold' }, status: 404 },
  { name: 'archive of an unknown run', method: 'POST', path: '/api/runs/r-nope/archive', body: { state: 'Archived' }, status: 404 },
  { name: 'resolve of an unknown run', method: 'POST', path: '/api/runs/r-nope/resolve', body: {}, status: 404 },
  { name: 'export of an unknown run', method: 'POST', path: '/api/runs/r-nope/export', body: {}, status: 404 },
  { name: 'GET of an unknown project', method: 'GET', path: '/api/projects/nope', status: 404 },
  { name: 'PATCH of an unknown project', method: 'PATCH', path: '/api/projects/nope', body: { name: 'x' }, status: 404 },
  { name: 'a folder for an unknown project', method: 'POST', path: '/api/projects/nope/folders', body: { path: '/tmp' }, status: 404 },
  { name: 'removing a folder of an unknown project', method: 'DELETE', path: '/api/projects/nope/folders/x', status: 404 },
  { name: 'removing an unknown folder', method: 'DELETE', path: `/api/projects/${P}/folders/nope`, status: 404 },
  { name: 'an unknown /api route', method: 'GET', path: '/api/nothing-here', status: 404 },
  // methods
  { name: 'PUT on /api/runs', method: 'PUT', path: '/api/runs', body: {}, status: 405 },
  { name: 'DELETE on /api/runs/{id}', method: 'DELETE', path: '/api/runs/{run}', status: 405 },
  { name: 'a method no route knows (PROPFIND) on /api/runs', method: 'PROPFIND', path: '/api/runs', status: 405 },
  // paging query values
  ...['0', '201', 'abc', '-1', '1.5', '', '1e2'].map((v): Row => ({ name: `history pageSize=${v}`, method: 'GET', path: `/api/runs/{run}/history?pageSize=${v}`, status: 400 })),
  ...['0', 'x', '-3'].map((v): Row => ({ name: `history before=${v}`, method: 'GET', path: `/api/runs/{run}/history?before=${v}`, status: 400 })),
  { name: 'thread pageSize=500', method: 'GET', path: '/api/runs/{run}/thread?pageSize=500', status: 400 },
  { name: 'thread before=abc', method: 'GET', path: '/api/runs/{run}/thread?before=abc', status: 400 },
  { name: 'log pageSize=0', method: 'GET', path: '/api/runs/{run}/log?pageSize=0', status: 400 },
  { name: 'log before=-1', method: 'GET', path: '/api/runs/{run}/log?before=-1', status: 400 },
  // controls, steering
  { name: 'an unknown control action', method: 'POST', path: '/api/runs/{run}/control', body: { position: 'v1', action: 'Explode' }, status: 400 },
  { name: 'a control action in the wrong case', method: 'POST', path: '/api/runs/{run}/control', body: { position: 'v1', action: 'pause' }, status: 400 },
  { name: 'a control without position', method: 'POST', path: '/api/runs/{run}/control', body: { action: 'Abort' }, status: 400 },
  { name: 'a position that is not a token', method: 'POST', path: '/api/runs/{run}/control', body: { position: 'garbage', action: 'Abort' }, status: 400 },
  { name: 'a position given as a number', method: 'POST', path: '/api/runs/{run}/control', body: { position: 1, action: 'Abort' }, status: 400 },
  { name: 'an empty position', method: 'POST', path: '/api/runs/{run}/control', body: { position: '', action: 'Abort' }, status: 400 },
  { name: 'a control with a model', method: 'POST', path: '/api/runs/{run}/control', body: { position: 'v1', action: 'Resume', model: 'm' }, status: 400 },
  { name: 'malformed JSON on a control', method: 'POST', path: '/api/runs/{run}/control', body: '{"position":', status: 400 },
  { name: 'an empty revised goal', method: 'POST', path: '/api/runs/{run}/goal', body: { goal: '' }, status: 400 },
  { name: 'a blank message', method: 'POST', path: '/api/runs/{run}/messages', body: { text: '  ', delivery: 'Hold' }, status: 400 },
  { name: 'an unknown delivery', method: 'POST', path: '/api/runs/{run}/messages', body: { text: 'hi', delivery: 'Later' }, status: 400 },
  { name: 'an unknown archive state', method: 'POST', path: '/api/runs/{run}/archive', body: { state: 'Deleted' }, status: 400 },
  { name: 'archive without a state', method: 'POST', path: '/api/runs/{run}/archive', body: {}, status: 400 },
  // previews (docs/preview.md)
  { name: 'POST on /api/previews', method: 'POST', path: '/api/previews', body: {}, status: 405 },
  { name: 'DELETE on /api/previews', method: 'DELETE', path: '/api/previews', status: 405 },
  { name: 'preview of an unknown run (GET)', method: 'GET', path: '/api/runs/r-nope/preview', status: 404 },
  { name: 'preview of an unknown run (POST)', method: 'POST', path: '/api/runs/r-nope/preview', body: {}, status: 404 },
  { name: 'preview of an unknown run (DELETE)', method: 'DELETE', path: '/api/runs/r-nope/preview', status: 404 },
  { name: 'an unknown field on POST preview', method: 'POST', path: '/api/runs/{run}/preview', body: { port: 3000 }, status: 400, detail: /port/ },
  { name: 'malformed JSON on POST preview', method: 'POST', path: '/api/runs/{run}/preview', body: '{"reason":', status: 400 },
  { name: 'an unknown field on DELETE preview', method: 'DELETE', path: '/api/runs/{run}/preview', body: { force: true }, status: 400, detail: /force/ },
  { name: 'a preview started without a worktree or command', method: 'POST', path: '/api/runs/{run}/preview', body: {}, status: 409 },
  { name: 'a preview argv given as a shell string', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: 'npm run dev' } }, status: 400, detail: /argv/ },
  { name: 'a preview with an empty argv', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: [] } }, status: 400, detail: /argv/ },
  { name: 'a preview with a blank program', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: [' '] } }, status: 400, detail: /argv/ },
  { name: 'a preview argv with a NUL byte', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: ['node', NUL_TEXT] } }, status: 400, detail: /argv/ },
  { name: 'a preview setup as a shell string', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: ['node'], setup: 'npm install' } }, status: 400, detail: /setup/ },
  { name: 'a preview portEnv that is not a variable name', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: ['node'], portEnv: 'MY PORT' } }, status: 400, detail: /portEnv/ },
  { name: 'a preview with an unknown field', method: 'PATCH', path: `/api/projects/${P}`, body: { preview: { argv: ['node'], shell: true } }, status: 400 },
  // Run on (docs/workers.md)
  { name: 'runOn naming no worker', method: 'PATCH', path: `/api/projects/${P}`, body: { runOn: 'w-nope' }, status: 400, detail: /not a worker of this hub/ },
  { name: 'a blank runOn', method: 'PATCH', path: `/api/projects/${P}`, body: { runOn: ' ' }, status: 400, detail: /runOn/ },
  { name: 'runOn as a number', method: 'PATCH', path: `/api/projects/${P}`, body: { runOn: 3 }, status: 400, detail: /runOn/ },
  { name: 'Previews idle minutes of 0', method: 'PUT', path: '/api/settings', body: { _tag: 'Previews', idleMinutes: 0, limit: 3 }, status: 400, detail: /idleMinutes/ },
  { name: 'Previews limit of 17', method: 'PUT', path: '/api/settings', body: { _tag: 'Previews', idleMinutes: 30, limit: 17 }, status: 400, detail: /limit/ },
  { name: 'Previews limit as a string', method: 'PUT', path: '/api/settings', body: { _tag: 'Previews', idleMinutes: 30, limit: '3' }, status: 400, detail: /limit/ },
  { name: 'a preview of an unknown run through the proxy', method: 'GET', path: '/preview/r-nope/', status: 404, detail: /no preview is running/ },
  { name: 'a preview that is not running through the proxy', method: 'GET', path: '/preview/{run}/page', status: 404, detail: /no preview is running/ },
  { name: 'an answer with no question id', method: 'POST', path: '/api/runs/{run}/answers', body: { question: '', answer: 'yes' }, status: 400 },
];

// Every stored setting, with a NUL byte (which spawn, git, file paths and headers cannot take) in
// a value, and with a value nested 20,000 levels deep: each a 400 with a detail, nothing stored.
const NUL = 'x\u0000y';
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const SETTINGS: readonly [string, object, string][] = [
  ['RunCap', { cap: { _tag: 'Chosen', value: 2 } }, 'cap'],
  ['McpEndpoint', { enabled: true }, 'enabled'],
  ['McpToolGroup', { group: 'reading', enabled: true }, 'group'],
  ['WatchdogTimeout', { seconds: 60 }, 'seconds'],
  ['DefaultHarness', { harness: 'claude' }, 'harness'],
  ['CodeHost', { graphqlUrl: 'https://api.github.com/graphql', webHost: 'github.com' }, 'webHost'],
  ['CodeHost', { graphqlUrl: 'https://api.github.com/graphql', webHost: 'github.com' }, 'graphqlUrl'],
  ['CodeHostToken', { token: 'tok' }, 'token'],
  ['TriggerPollInterval', { seconds: 60 }, 'seconds'],
  ['ReleaseFeed', { enabled: true, url: 'https://registry.example/svc' }, 'url'],
  ['Prices', { prices: [{ harness: 'claude', model: 'm', inputPerMTok: 1, cachedInputPerMTok: 1, outputPerMTok: 1 }] }, 'prices'],
  ['SupervisorPrices', { prices: [{ harness: 'claude', model: 'm', inputPerMTok: 1, cachedInputPerMTok: 1, outputPerMTok: 1 }] }, 'prices'],
  ['Supervisors', { enabled: true }, 'enabled'],
  ['FallbackHarnesses', { harnesses: ['claude'] }, 'harnesses'],
  ['NotifyCommand', { argv: ['/bin/true', 'a'], kinds: ['gate'] }, 'argv'],
  ['PullRequestWatchInterval', { seconds: 60 }, 'seconds'],
  ['Previews', { idleMinutes: 30, limit: 3 }, 'idleMinutes'],
];
// a NUL byte in every string the field holds (a field that holds none gets one in its place)
const withNul = (v: unknown): unknown =>
  typeof v === 'string' ? `${v}\u0000` : Array.isArray(v) ? v.map(withNul) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withNul(x)])) : NUL;
const SETTING_ROWS: readonly Row[] = SETTINGS.flatMap(([tag, body, field]): Row[] => [
  { name: `a NUL byte in setting ${tag} (${field})`, method: 'PUT', path: '/api/settings', body: { _tag: tag, ...body, [field]: withNul((body as Record<string, unknown>)[field]) }, status: 400 },
  { name: `a NUL byte in the tag of setting ${tag} (${field} row)`, method: 'PUT', path: '/api/settings', body: { ...body, _tag: `${tag}\u0000` }, status: 400 },
  { name: `setting ${tag} with ${field} nested 20,000 levels deep`, method: 'PUT', path: '/api/settings', body: `${JSON.stringify({ _tag: tag, ...body }).slice(0, -1)},${JSON.stringify(field)}:${deep(20_000)}}`, status: 400 },
  { name: `setting ${tag} inside a list nested 20,000 levels deep (${field} row)`, method: 'PUT', path: '/api/settings', body: `[${deep(20_000)},${JSON.stringify({ _tag: tag, ...body })}]`, status: 400 },
]);

for (const row of SETTING_ROWS) {
  test.serial(`${row.name} → 400 with a detail, nothing stored`, async (t) => {
    const before = (await t.context.s.get('/api/settings')).body;
    const r = await t.context.s.send(row.method, row.path, typeof row.body === 'string' ? row.body : json(row.body));
    t.is(r.status, 400, JSON.stringify(r.body).slice(0, 300));
    t.true(isRefusal(r), `no detail: ${JSON.stringify(r.body).slice(0, 300)}`);
    t.deepEqual((await t.context.s.get('/api/settings')).body, before);
  });
}

const fill = (text: string, c: { s: TestServer; runs: string[] }) => text.replaceAll('{run}', c.runs[0]!).replaceAll(P, c.s.projectId);

for (const row of TABLE) {
  test.serial(`${row.name} → ${row.status} with a detail`, async (t) => {
    const body = row.body === undefined ? undefined : fill(typeof row.body === 'string' ? row.body : json(row.body), t.context);
    const r = await t.context.s.send(row.method, fill(row.path, t.context), body, row.headers);
    t.is(r.status, row.status, JSON.stringify(r.body).slice(0, 300));
    t.true(isRefusal(r), `no detail: ${JSON.stringify(r.body).slice(0, 300)}`);
    if (row.detail) t.regex(r.body.detail, row.detail);
  });
}

// A client that streams its body without a length: the limit still answers 413 rather than
// hanging up on the client.
const chunked = (url: string, path: string, chunks: number, chunk: Buffer): Promise<{ status: number; body: any }> =>
  new Promise((resolve, reject) => {
    const req = request(url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || 'null') }));
    });
    req.on('error', reject);
    let i = 0;
    const write = (): void => {
      while (i < chunks) {
        i++;
        if (!req.write(chunk)) { req.once('drain', write); return; }
      }
      req.end();
    };
    write();
  });

test.serial('a 2 MB body streamed without a content-length → 413 with a detail', async (t) => {
  const r = await chunked(t.context.s.url, '/api/runs', 32, Buffer.alloc(64 * 1024, 'x')).catch((e: Error) => ({ status: 0, body: { detail: e.message } }));
  t.is(r.status, 413, JSON.stringify(r.body));
  t.true(isRefusal(r));
});

test.serial('after all of that the server still answers, and the runs recorded before are all listed', async (t) => {
  const { s, runs } = t.context;
  const health = await s.get('/api/health');
  t.is(health.status, 200);
  t.is(typeof health.body.version, 'string');
  const listed = ((await s.get('/api/runs')).body as { runId: string }[]).map((r) => r.runId);
  t.deepEqual(listed.sort(), [...runs].sort());
  for (const id of runs) t.is((await s.get(`/api/runs/${id}`)).status, 200);
  const projects = (await s.get('/api/projects')).body as { id: string }[];
  t.deepEqual(projects.map((p) => p.id), [s.projectId]);
});
