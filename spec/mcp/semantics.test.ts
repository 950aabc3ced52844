import test from 'ava';
import { FakeService } from './helpers/fake-service.js';
import { FakeSettings } from './helpers/fake-settings.js';
import { connect, startServer } from './helpers/server.js';
import { call, json, textOf } from './helpers/call.js';

// What the tools pass to the service and how they shape its answers (with the in-memory service).

const boot = async () => {
  const api = new FakeService();
  const settings = new FakeSettings();
  settings.allGroups(true);
  const srv = await startServer(api, settings);
  const client = await connect(srv, srv.token(), 'claude-code');
  return { api, settings, srv, client };
};
const shared = boot();
test.after.always(async () => {
  const { srv, client } = await shared;
  await client.close();
  await srv.close();
});

test.serial('paging defaults are 10, 25 and 50', async (t) => {
  const { api, client } = await shared;
  api.put('r1', 'Running');
  await call(client, 'read_run_thread', { run: 'r1' });
  await call(client, 'read_run_history', { run: 'r1' });
  await call(client, 'read_run_log', { run: 'r1', before: 7 });
  const pages = api.calls.filter((c) => c.method.startsWith('read')).map((c) => [c.method, c.args[1], c.args[2]]);
  t.deepEqual(pages, [['readThread', undefined, 10], ['readHistory', undefined, 25], ['readLog', 7, 50]]);
});

test.serial('start_run answers the run id and its page address, acting as the calling agent', async (t) => {
  const { api, client } = await shared;
  const res = json(await call(client, 'start_run', { project: 'p1', goal: 'fix the bug', harness: 'codex', reason: 'asked' }));
  t.regex(String(res.run), /^r\d+$/);
  t.is(res.url, `http://127.0.0.1:1/runs/${res.run}`);
  const started = api.calls.find((c) => c.method === 'startRun');
  t.deepEqual(started?.args[0], { project: 'p1', goal: 'fix the bug', harness: 'codex', reason: 'asked' });
  t.deepEqual(started?.by, { kind: 'agent', name: 'claude-code' });
});

test.serial('start_run in an unknown project is refused with the reason', async (t) => {
  const { client } = await shared;
  const res = await call(client, 'start_run', { project: 'nope', goal: 'x' });
  t.true(res.isError);
  t.is(textOf(res), 'unknown project: nope');
});

test.serial('control_run: Stale is a normal result; a disallowed action is refused naming the allowed ones', async (t) => {
  const { api, client } = await shared;
  const run = api.put('r9', 'Running');
  const stale = await call(client, 'control_run', { run: 'r9', position: 'p0', action: 'Pause' });
  t.falsy(stale.isError);
  t.is(json(stale).outcome, 'Stale');
  const refused = await call(client, 'control_run', { run: 'r9', position: run.position, action: 'Resume' });
  t.true(refused.isError);
  t.is(textOf(refused), 'Resume is not allowed now; allowed actions: Pause, Abort, ChangeHarness, Jump');
  const applied = json<{ outcome: string; run: { standing: string } }>(await call(client, 'control_run', { run: 'r9', position: run.position, action: 'Pause', reason: 'lunch' }));
  t.is(applied.outcome, 'Applied');
  t.is(applied.run.standing, 'Paused');
  const sent = api.calls.filter((c) => c.method === 'control').at(-1);
  t.deepEqual(sent?.args, ['r9', { position: run.position, action: 'Pause', reason: 'lunch' }]);
});

test.serial('refusals from the service become tool errors with their text', async (t) => {
  const { api, client } = await shared;
  api.put('r8', 'Succeeded');
  t.is(textOf(await call(client, 'revise_goal', { run: 'r8', goal: 'x' })), 'the run has ended; its goal cannot be revised');
  api.put('r7', 'Running');
  t.is(textOf(await call(client, 'archive_run', { run: 'r7', state: 'Archived' })), 'the run is still going; it cannot be archived');
  t.is(textOf(await call(client, 'resolve_run', { run: 'r7' })), 'the run has not ended; only an ended run can be resolved');
  t.is(textOf(await call(client, 'get_run', { run: 'ghost' })), 'unknown run: ghost');
  const msg = json(await call(client, 'message_run', { run: 'r8', text: 'hello', delivery: 'Resume' }));
  t.deepEqual([msg.delivered, msg.detail], [false, 'the run has ended']);
});

test.serial('change_setting records the tool and the calling agent as the source', async (t) => {
  const { settings, client } = await shared;
  const res = json(await call(client, 'change_setting', { change: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 5 } } }));
  t.deepEqual(res.committed, { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 5 } });
  t.deepEqual(settings.changes.at(-1)?.source, { via: 'mcp', sender: 'claude-code' });
});

test.serial('a tool whose service call throws answers an error and the server goes on', async (t) => {
  const { api, client } = await shared;
  const original = api.listProjects.bind(api);
  api.listProjects = () => { throw new Error('disk on fire'); };
  t.teardown(() => { api.listProjects = original; });
  const res = await call(client, 'list_projects', {});
  t.true(res.isError);
  t.is(textOf(res), 'list_projects failed: disk on fire');
  api.listProjects = original;
  t.falsy((await call(client, 'list_projects', {})).isError);
});

test.serial('list_projects answers id, name, folders and primaryFolder only', async (t) => {
  const { client } = await shared;
  t.deepEqual(json(await call(client, 'list_projects', {})), {
    projects: [{ id: 'p1', name: 'Demo', folders: [{ name: 'app', path: '/tmp/app' }], primaryFolder: 'app' }],
  });
});
