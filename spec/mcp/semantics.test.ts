import test from 'ava';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { history } from '../helpers/steer.js';
import { mcpServer } from './helpers/real.js';
import { call, json, textOf } from './helpers/call.js';

// What the tools pass to the real service and how they shape its answers: what they asked for is
// read back from the run's own record (its history, its pages, the settings' changes).

const boot = async () => {
  const srv = await mcpServer();
  for (const group of ['archiving', 'settings']) await srv.setting({ _tag: 'McpToolGroup', group, enabled: true });
  const client = await srv.connect('claude-code');
  return { srv, client };
};
const shared = boot();
test.after.always(async () => {
  const { srv, client } = await shared;
  await client.close();
  await srv.close();
});

test.serial('paging defaults are 10, 25 and 50', async (t) => {
  const { srv, client } = await shared;
  // 60 log lines (one per file written), and 30 messages: 31 thread rows, over 30 events
  const run = await srv.running(`${Array.from({ length: 60 }, (_, i) => `[write:f${i}.txt=x]`).join('')}[silent]`);
  for (let i = 0; i < 30; i++) t.falsy((await call(client, 'message_run', { run, text: `note ${i}`, delivery: 'Hold' })).isError);
  const thread = json<{ rows: unknown[]; before: string | null }>(await call(client, 'read_run_thread', { run }));
  t.is(thread.rows.length, 10);
  t.truthy(thread.before);
  const events = json<{ events: unknown[]; before: number | null }>(await call(client, 'read_run_history', { run }));
  t.is(events.events.length, 25);
  t.truthy(events.before);
  const lines = json<{ lines: { n: number }[] }>(await call(client, 'read_run_log', { run })).lines;
  t.true((await srv.get(`/api/runs/${run}/log?pageSize=200`)).body.lines.length >= 60);
  t.is(lines.length, 50);
  const early = json<{ lines: { n: number }[] }>(await call(client, 'read_run_log', { run, before: 7 })).lines;
  t.deepEqual(early.map((l) => l.n), [1, 2, 3, 4, 5, 6]);
});

test.serial('start_run answers the run id and its page address, acting as the calling agent', async (t) => {
  const { srv, client } = await shared;
  const res = json(await call(client, 'start_run', { project: srv.projectId, goal: 'fix the bug', harness: 'codex', reason: 'asked' }));
  t.regex(String(res.run), /^r\w+$/);
  t.is(res.url, `${srv.baseUrl}runs/${res.run}`);
  const created = (await history(srv, String(res.run)))[0];
  t.is(created.type, 'RunCreated');
  t.like(created.data, { projectId: srv.projectId, goal: 'fix the bug', harness: 'codex', reason: 'asked' });
  t.deepEqual(created.data.by, { kind: 'agent', name: 'claude-code' });
});

test.serial('start_run takes budgetUsd; get_run shows the budget and the run\'s usage', async (t) => {
  const { srv, client } = await shared;
  const res = json(await call(client, 'start_run', { project: srv.projectId, goal: 'cheap', budgetUsd: 2.5 }));
  t.like((await history(srv, String(res.run)))[0].data, { budgetUsd: 2.5 });
  const { run } = json<{ run: { budget: unknown; usage: unknown } }>(await call(client, 'get_run', { run: String(res.run) }));
  t.like(run.budget, { budgetUsd: 2.5 });
  t.like(run.usage, { total: { unknownTurns: 0 } });
});

test.serial('start_run in an unknown project is refused with the reason', async (t) => {
  const { client } = await shared;
  const res = await call(client, 'start_run', { project: 'nope', goal: 'x' });
  t.true(res.isError);
  t.is(textOf(res), 'unknown project: nope');
});

test.serial('control_run: Stale is a normal result; a disallowed action is refused naming the allowed ones', async (t) => {
  const { srv, client } = await shared;
  const run = await srv.running();
  const position = await srv.position(run);
  const stale = await call(client, 'control_run', { run, position: 'v0', action: 'Pause' });
  t.falsy(stale.isError);
  t.is(json(stale).outcome, 'Stale');
  const refused = await call(client, 'control_run', { run, position, action: 'Resume' });
  t.true(refused.isError);
  t.is(textOf(refused), 'Resume is not allowed now; allowed actions: Pause, ChangeHarness, Jump, Restart, Abort');
  const applied = json<{ outcome: string; run: { standing: string } }>(await call(client, 'control_run', { run, position, action: 'Pause', reason: 'lunch' }));
  t.is(applied.outcome, 'Applied');
  t.is(applied.run.standing, 'Paused');
  const paused = (await history(srv, run)).filter((e) => e.type === 'RunPaused');
  t.deepEqual(paused.map((e) => e.data), [{ by: { kind: 'agent', name: 'claude-code' }, reason: 'lunch' }]);
});

test.serial('refusals from the service become tool errors with their text', async (t) => {
  const { srv, client } = await shared;
  const ended = await srv.ended();
  t.is(textOf(await call(client, 'revise_goal', { run: ended, goal: 'x' })), 'the run has ended; its goal cannot be revised');
  const going = await srv.running();
  const archive = await call(client, 'archive_run', { run: going, state: 'Archived' });
  t.true(archive.isError);
  t.is(textOf(archive), 'the run is still going; abort it or let it end before archiving');
  const resolve = await call(client, 'resolve_run', { run: going });
  t.true(resolve.isError);
  t.is(textOf(resolve), 'only a run that ended without success can be resolved');
  t.is(textOf(await call(client, 'get_run', { run: 'ghost' })), 'unknown run: ghost');
  const msg = await call(client, 'message_run', { run: ended, text: 'hello', delivery: 'Resume' });
  t.true(msg.isError);
  t.is(textOf(msg), 'the run has ended (Aborted); the message was not taken');
});

test.serial('change_setting records the tool and the calling agent as the source', async (t) => {
  const { srv, client } = await shared;
  const res = json(await call(client, 'change_setting', { change: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 50 } } }));
  t.deepEqual(res.committed, { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 50 } });
  const latest = (await srv.get('/api/settings/changes')).body.changes[0];
  t.deepEqual(latest.change, { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 50 } });
  t.deepEqual(latest.source, { via: 'mcp', sender: 'claude-code' });
});

test.serial('a tool whose work fails on the machine answers an error saying why, and the server goes on', async (t) => {
  const { srv, client } = await shared;
  const run = await srv.ended();
  // exports/ taken by a plain file: the export cannot be written
  const exports = join(srv.home, 'exports');
  rmSync(exports, { recursive: true, force: true });
  writeFileSync(exports, 'in the way');
  t.teardown(() => rmSync(exports, { recursive: true, force: true }));
  const res = await call(client, 'export_run', { run });
  t.true(res.isError);
  t.regex(textOf(res), /could not write the export under .*exports: E[A-Z]+: /);
  rmSync(exports);
  mkdirSync(exports, { mode: 0o700 });
  const again = await call(client, 'export_run', { run });
  t.falsy(again.isError, textOf(again));
  t.is(json(again).path, join(exports, `${run}.jsonl`));
});

test.serial('list_projects answers id, name, folders and primaryFolder only', async (t) => {
  const { srv, client } = await shared;
  const folder = srv.repo.split('/').at(-1);
  t.deepEqual(json(await call(client, 'list_projects', {})), {
    projects: [{ id: srv.projectId, name: 'demo', folders: [{ name: folder, path: srv.repo }], primaryFolder: folder }],
  });
});
