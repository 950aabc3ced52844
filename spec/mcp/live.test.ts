import test from 'ava';
import { statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startLive, type Live } from './helpers/live.js';
import { call, json, textOf, type CallAnswer } from './helpers/call.js';

// The SDK client against the real server and service: a run started over MCP stops at a gate,
// 200 waiters wake when it is resumed, and the run is read, exported and archived over MCP.

interface Ctx { live: Live; client: Client; run?: string }
const boot = async (): Promise<Ctx> => {
  const live = await startLive();
  const client = new Client({ name: 'live-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${live.server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${live.token}` } } }));
  return { live, client };
};
const shared = boot();
test.after.always(async () => {
  const { live, client } = await shared;
  await client.close();
  await live.server.close();
});

type Run = { id: string; standing: string; position: string; allowedActions: string[] };
const getRun = async (client: Client, id: string): Promise<Run> => json<{ run: Run }>(await call(client, 'get_run', { run: id })).run;
const ok = (t: { falsy(v: unknown, m?: string): void }, res: CallAnswer): CallAnswer => { t.falsy(res.isError, textOf(res)); return res; };

const untilStanding = async (client: Client, id: string, standing: string): Promise<Run> => {
  for (let i = 0; i < 60; i++) {
    const waited = json<{ run: Run }>(await call(client, 'wait_for_run', { run: id, timeout: 1 })).run;
    if (waited.standing === standing) return waited;
  }
  throw new Error(`run ${id} never reached ${standing}`);
};

test.serial('projects and workflows are read from the real catalog', async (t) => {
  const { client, live } = await shared;
  const projects = json<{ projects: { id: string; name: string; primaryFolder: string }[] }>(ok(t, await call(client, 'list_projects', {}))).projects;
  t.deepEqual(projects.map((p) => [p.id, p.name, p.primaryFolder]), [[live.projectId, 'Demo', 'demo']]);
  const workflows = json<{ workflows: { name: string; origin: string }[] }>(ok(t, await call(client, 'list_workflows', { project: live.projectId }))).workflows;
  t.true(workflows.some((w) => w.name === 'gate' && w.origin === 'project'));
  t.true(json(ok(t, await call(client, 'validate_workflow', { project: live.projectId, workflow: 'gate' }))).loads as boolean);
  t.regex(String(json(ok(t, await call(client, 'read_workflow', { project: live.projectId, workflow: 'gate' }))).source), /kind=gate/);
  t.true((await call(client, 'read_workflow', { project: live.projectId, workflow: 'nope' })).isError);
});

test.serial('start_run over MCP: the run queues, starts and stops at the gate', async (t) => {
  const ctx = await shared;
  const started = json<{ run: string; url: string }>(ok(t, await call(ctx.client, 'start_run', { project: ctx.live.projectId, goal: 'hold on', workflow: 'gate', title: 'Gate run' })));
  t.true(started.url.startsWith(ctx.live.server.url));
  t.true(started.url.includes(started.run));
  ctx.run = started.run;
  const paused = await untilStanding(ctx.client, started.run, 'Paused');
  t.true(paused.allowedActions.includes('Resume'));
  const listed = json<{ runs: { id: string; title: string }[] }>(ok(t, await call(ctx.client, 'list_runs', { standing: 'Paused' }))).runs;
  t.deepEqual(listed.map((r) => [r.id, r.title]), [[started.run, 'Gate run']]);
});

test.serial('control_run refusals: model, a disallowed action, an unknown position', async (t) => {
  const { client, run } = await shared;
  const r = await getRun(client, run!);
  t.regex(textOf(await call(client, 'control_run', { run: run!, position: r.position, action: 'ChangeHarness', harness: 'codex', model: 'x' })), /model is unsupported/);
  const refused = await call(client, 'control_run', { run: run!, position: r.position, action: 'SkipWait' });
  t.true(refused.isError);
  t.regex(textOf(refused), /^SkipWait is not allowed now; allowed actions: .*Resume/);
  t.regex(textOf(await call(client, 'control_run', { run: run!, position: 'made-up', action: 'Resume' })), /position/);
});

test.serial('200 concurrent waiters all wake on one change (their latency is measured in bench/)', async (t) => {
  const { client, run, live } = await shared;
  const service = live.server.service;
  let registered = 0;
  const original = service.waitForRun.bind(service);
  service.waitForRun = (...args: Parameters<typeof original>) => { registered++; return original(...args); };
  t.teardown(() => { service.waitForRun = original; });
  const waits = Array.from({ length: 200 }, () => call(client, 'wait_for_run', { run: run!, timeout: 120 }));
  for (let i = 0; registered < 200 && i < 1000; i++) await new Promise((r) => setTimeout(r, 10));
  t.is(registered, 200);
  const r = await getRun(client, run!);
  const resumed = json(ok(t, await call(client, 'control_run', { run: run!, position: r.position, action: 'Resume', reason: 'go on' })));
  t.is(resumed.outcome, 'Applied');
  const answers = await Promise.all(waits);
  for (const a of answers) t.true(['Standing', 'Ended'].includes(String(json(a).changed)), textOf(a));
  // the position before the resume is now behind the run: a normal Stale answer, nothing applied
  const stale = json<{ outcome: string; run: Run }>(ok(t, await call(client, 'control_run', { run: run!, position: r.position, action: 'Abort' })));
  t.is(stale.outcome, 'Stale');
  t.not(stale.run.position, r.position);
});

test.serial('an ended run: AlreadyEnded at once; history, log, thread and export read it', async (t) => {
  const { client, run, live } = await shared;
  await untilStanding(client, run!, 'Succeeded');
  t.is(json(ok(t, await call(client, 'wait_for_run', { run: run! }))).changed, 'AlreadyEnded');
  const history = json<{ events: unknown[] }>(ok(t, await call(client, 'read_run_history', { run: run!, pageSize: 200 })));
  t.true(history.events.length > 2);
  ok(t, await call(client, 'read_run_log', { run: run! }));
  ok(t, await call(client, 'read_run_thread', { run: run! }));
  const exported = json<{ path: string; size: number }>(ok(t, await call(client, 'export_run', { run: run! })));
  t.true(exported.path.startsWith(live.home));
  t.true(exported.size > 0);
  t.is(statSync(exported.path).mode & 0o777, 0o600);
  const revised = await call(client, 'revise_goal', { run: run!, goal: 'too late' });
  t.true(revised.isError);
  t.true(textOf(revised).length > 0);
  const tree = json<{ folders: { folder: string; branch: string }[] }>(ok(t, await call(client, 'read_run_worktree', { run: run! })));
  t.deepEqual(tree.folders.map((f) => f.folder), ['demo']);
  t.truthy(tree.folders[0]?.branch);
  t.true((await call(client, 'read_pull_request', { run: run! })).isError);
});

test.serial('groups: archiving is off until change_setting turns it on; the change records the agent', async (t) => {
  const { client, run, live } = await shared;
  const service = live.server.service;
  t.is(textOf(await call(client, 'archive_run', { run: run!, state: 'Archived' })), 'the archiving tool group is off in Settings');
  t.is(textOf(await call(client, 'change_setting', { change: { _tag: 'McpToolGroup', group: 'archiving', enabled: true } })), 'the settings tool group is off in Settings');
  service.changeSetting({ _tag: 'McpToolGroup', group: 'settings', enabled: true }, { via: 'cli', sender: null });
  const names = (await client.listTools()).tools.map((x) => x.name);
  t.true(names.includes('change_setting'));
  t.false(names.includes('archive_run'));
  const changed = json(ok(t, await call(client, 'change_setting', { change: { _tag: 'McpToolGroup', group: 'archiving', enabled: true } })));
  t.deepEqual(changed.committed, { _tag: 'McpToolGroup', group: 'archiving', enabled: true });
  t.deepEqual(service.recentSettingChanges(1)[0]?.source, { via: 'mcp', sender: 'live-agent' });
  t.deepEqual(json(ok(t, await call(client, 'archive_run', { run: run!, state: 'Archived' }))).state, 'Archived');
  t.false(json<{ runs: { id: string }[] }>(await call(client, 'list_runs', {})).runs.some((r) => r.id === run));
  // archiving removes the run's checkouts (spec, States); wait for it so nothing writes after close
  for (let i = 0; (service.core.runs.get(run!)?.checkouts?.length ?? 0) > 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 20));
  t.is(service.core.runs.get(run!)?.checkouts?.length ?? 0, 0);
});

test.serial('the endpoint switched off over MCP answers 404 from the next request on', async (t) => {
  const { client, live } = await shared;
  ok(t, await call(client, 'change_setting', { change: { _tag: 'McpEndpoint', enabled: false } }));
  const res = await fetch(`${live.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${live.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
  t.is(res.status, 404);
  live.server.service.changeSetting({ _tag: 'McpEndpoint', enabled: true }, { via: 'cli', sender: null });
  t.falsy((await call(client, 'list_projects', {})).isError);
});
