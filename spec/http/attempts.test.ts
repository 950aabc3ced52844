import '../helpers/env.js';
import test from 'ava';
import { existsSync } from 'node:fs';
import { eventually, gitRepo } from '../helpers/env.js';
import { eventsOf, worktreeOf } from '../helpers/http-kit.js';
import { call, json, textOf } from '../mcp/helpers/call.js';
import { mcpServer } from '../mcp/helpers/real.js';
import { detail, untilStanding } from '../helpers/steer.js';

// One goal on several agents at once (POST /api/runs `attempts`, start_run), Compare
// (GET /api/compare) and "Keep this one" (POST /api/runs/{id}/keep, keep_attempt), against the real
// server with the scripted harness (spec/fixtures/harness). opencode reads as not logged in here,
// so a group that names it cannot start: what all-or-nothing is shown with.

process.env['SCRIPTED_OPENCODE_DOWN'] = '1';
const shared = mcpServer().then(async (s) => {
  // keep_attempt archives runs: it is in the archiving group, off until turned on
  await s.setting({ _tag: 'McpToolGroup', group: 'archiving', enabled: true });
  return s;
});
test.after.always(async () => (await shared).close());

// each harness writes its own file and a shared one with its own text: the diffs differ
const GOAL = '[writeon:claude:claude.txt=c][writeon:codex:codex.txt=x][writeon:claude:both.txt=from claude][writeon:codex:both.txt=from codex][report:success]';

const boardSize = async () => (await (await shared).get('/api/board?archived=true')).body.length as number;

const startAttempts = async (goal = GOAL, attempts: unknown = [{ harness: 'claude' }, { harness: 'codex', model: 'gpt-test' }]) => {
  const s = await shared;
  const r = await s.post('/api/runs', { project: s.projectId, goal, workflow: 'two', attempts });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { runId: string; url: string; attempts: { runId: string; harness: string; model?: string; url: string }[] };
};

test.serial('attempts make one run per agent, grouped on each RunCreated; the answer is the first run and every attempt', async (t) => {
  const s = await shared;
  const r = await startAttempts();
  t.is(r.attempts.length, 2);
  t.is(r.runId, r.attempts[0]!.runId);
  t.is(r.url, r.attempts[0]!.url);
  t.like(r.attempts[0], { harness: 'claude' });
  t.like(r.attempts[1], { harness: 'codex', model: 'gpt-test' });
  t.false('model' in r.attempts[0]!);
  const created = await Promise.all(r.attempts.map(async (a) => (await eventsOf(s, a.runId, 'RunCreated'))[0].data));
  const group = created[0].attempt.group;
  t.deepEqual(created.map((c) => c.attempt), [{ group, index: 0, of: 2 }, { group, index: 1, of: 2 }]);
  t.deepEqual(created.map((c) => [c.harness, c.model]), [['claude', undefined], ['codex', 'gpt-test']]);
  t.true(created.every((c) => c.goal === GOAL && c.workflow.name === 'two'));
  for (const a of r.attempts) await untilStanding(s, a.runId, 'Succeeded');
  const board = (await s.get('/api/board')).body.filter((row: any) => row.attempt?.group === group);
  t.deepEqual(board.map((row: any) => row.attempt.index).sort(), [0, 1]);
  t.like(await detail(s, r.runId), { attempt: { group, index: 0, of: 2, kept: false } });
});

const BAD: readonly { attempts: unknown; extra?: Record<string, unknown>; says: RegExp }[] = [
  { attempts: [{ harness: 'claude' }], says: /attempts must list 2 to 6 agents \(got 1\)/ },
  { attempts: Array.from({ length: 7 }, (_, i) => ({ harness: 'claude', model: `m${i}` })), says: /attempts must list 2 to 6 agents \(got 7\)/ },
  { attempts: [{ harness: 'claude' }, { harness: 'claude' }], says: /attempts must differ: claude is listed more than once/ },
  { attempts: [{ harness: 'codex', model: 'm' }, { harness: 'codex', model: 'm' }], says: /codex with model m is listed more than once/ },
  { attempts: [{ harness: 'claude' }, { harness: 'codex' }], extra: { harness: 'claude' }, says: /attempts cannot be given together with harness or model/ },
  { attempts: [{ harness: 'cursor' }, { harness: 'codex' }], says: /attempts\.0\.harness/ },
  // inside an attempt, a key is a field at both doors (only the top level's are a tool's arguments)
  { attempts: [{ harness: 'claude', runId: 'x' }, { harness: 'codex' }], says: /attempts\.0: unknown field: "?runId/ },
  { attempts: 'claude,codex', says: /attempts/ },
];

test.serial('bad attempts are a 400 with detail over HTTP and a tool error over MCP, and no run is made', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const before = await boardSize();
  for (const { attempts, extra, says } of BAD) {
    const body = { project: s.projectId, goal: GOAL, workflow: 'two', attempts, ...extra };
    const r = await s.post('/api/runs', body);
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(r.body.detail, says, JSON.stringify(r.body));
    const res = await call(client, 'start_run', body);
    t.true(res.isError, JSON.stringify(body));
    t.regex(textOf(res), says, textOf(res));
  }
  t.is(await boardSize(), before);
});

test.serial('all or nothing: one attempt that cannot start (its harness is not logged in) refuses the group, and no run is made', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  await eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.find((h: any) => h.name === 'opencode').availability._tag === 'NotLoggedIn');
  const before = await boardSize();
  const body = { project: s.projectId, goal: GOAL, workflow: 'two', attempts: [{ harness: 'claude' }, { harness: 'codex' }, { harness: 'opencode' }] };
  const r = await s.post('/api/runs', body);
  t.true(r.status >= 400 && r.status < 500, JSON.stringify(r.body));
  t.regex(r.body.detail, /opencode/);
  const res = await call(client, 'start_run', body);
  t.true(res.isError);
  t.regex(textOf(res), /opencode/);
  t.is(await boardSize(), before, 'neither claude nor codex was started');
});

test.serial('start_run takes attempts with the same decoder and answers each attempt', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const res = await call(client, 'start_run', { project: s.projectId, goal: '[report:success]', workflow: 'two', attempts: [{ harness: 'claude', model: 'a' }, { harness: 'claude', model: 'b' }] });
  t.falsy(res.isError, textOf(res));
  const answer = json<{ run: string; attempts: { run: string; harness: string; model: string; url: string }[] }>(res);
  t.deepEqual(answer.attempts.map((a) => [a.harness, a.model]), [['claude', 'a'], ['claude', 'b']]);
  t.is(answer.run, answer.attempts[0]!.run);
  for (const a of answer.attempts) await untilStanding(s, a.run, 'Succeeded');
});

test.serial('compare: both diffs against the shared base, the files both touched first; refusals say why', async (t) => {
  const s = await shared;
  const r = await startAttempts();
  const [a, b] = r.attempts.map((x) => x.runId) as [string, string];
  for (const id of [a, b]) await untilStanding(s, id, 'Succeeded');
  const c = await s.get(`/api/compare?a=${a}&b=${b}`);
  t.is(c.status, 200, JSON.stringify(c.body));
  t.like(c.body.a, { runId: a, standing: 'Succeeded', harness: 'claude', attempt: { index: 0 } });
  // the cost the run's own detail gives (the scripted harness reports one per turn)
  const detail = await s.get(`/api/runs/${a}/detail`);
  t.is(c.body.a.costUsd, detail.body.usage.total.costUsd);
  t.is(typeof c.body.a.costUsd, 'number');
  t.like(c.body.b, { runId: b, standing: 'Succeeded', harness: 'codex', model: 'gpt-test' });
  t.is(typeof c.body.a.durationMs, 'number');
  t.true(c.body.sameGroup);
  const [folder] = c.body.folders;
  t.is(folder.baseKind, 'same');
  // the scripted harness keeps its own log in the worktree (.turns.log): both touched it too
  const files = folder.files.filter((f: any) => f.path !== '.turns.log');
  t.deepEqual(files.map((f: any) => f.path), ['both.txt', 'claude.txt', 'codex.txt']);
  t.true(folder.files.findIndex((f: any) => f.path === 'claude.txt') > folder.files.findIndex((f: any) => f.path === 'both.txt'));
  const [both, onlyA, onlyB] = files;
  t.regex(both.a, /\+from claude/);
  t.regex(both.b, /\+from codex/);
  t.true(onlyA.a !== null && onlyA.b === null);
  t.true(onlyB.a === null && onlyB.b !== null);

  t.is((await s.get(`/api/compare?a=${a}`)).status, 400);
  t.regex((await s.get(`/api/compare?a=${a}`)).body.detail, /b: is required/);
  t.regex((await s.get(`/api/compare?a=${a}&b=${a}`)).body.detail, /the same run/);
  const unknown = await s.get(`/api/compare?a=${a}&b=nope`);
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /unknown run/);
  const other = await s.post('/api/projects', { name: 'other', folders: [{ path: gitRepo() }] });
  t.is(other.status, 200, JSON.stringify(other.body));
  const elsewhere = await s.post('/api/runs', { project: other.body.id, goal: 'x', workflow: 'two', start: false });
  const refused = await s.get(`/api/compare?a=${a}&b=${elsewhere.body.runId}`);
  t.is(refused.status, 400);
  t.regex(refused.body.detail, /different projects.*two runs of one project/);
});

test.serial('keep: refused while another attempt goes, unless abortOthers; then the others are aborted and archived, and the choice is recorded', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const r = await startAttempts('[writeon:claude:go=1][until:go][report:success]');
  const [a, b] = r.attempts.map((x) => x.runId) as [string, string];
  await untilStanding(s, a, 'Succeeded');
  await eventually(() => detail(s, b), (d) => d.standing === 'Running' && d.currentStep === 'work');
  const refused = await s.post(`/api/runs/${a}/keep`, {});
  t.is(refused.status, 409);
  t.regex(refused.body.detail, new RegExp(`attempt ${b} \\(codex\\) is still going: .*abortOthers: true`));
  const tool = await call(client, 'keep_attempt', { run: a });
  t.true(tool.isError);
  t.regex(textOf(tool), /still going/);
  t.regex(textOf(await call(client, 'keep_attempt', { run: a, abortOthers: 'yes' })), /abortOthers/);
  t.is((await s.post(`/api/runs/${a}/keep`, { abortOthers: 'yes' })).status, 400);

  const directory = await worktreeOf(s, b);
  t.true(existsSync(directory));
  const kept = await s.post(`/api/runs/${a}/keep`, { abortOthers: true, reason: 'claude did it' });
  t.is(kept.status, 200, JSON.stringify(kept.body));
  t.deepEqual(kept.body.archived, [b]);
  t.like(kept.body.run, { attempt: { kept: true } });
  t.like(await detail(s, b), { standing: 'Aborted', archived: true });
  const [event] = await eventsOf(s, a, 'AttemptKept');
  t.like(event.data, { group: (await detail(s, a)).attempt.group, kept: a, archived: [b], reason: 'claude did it' });
  // the archived attempt's worktree goes; its journal stays
  await eventually(() => existsSync(directory), (there) => !there);
  t.true((await eventsOf(s, b, 'RunCreated')).length === 1);

  // the archived attempt still compares: the work kept when it was archived, with a note that says so
  const after = await s.get(`/api/compare?a=${a}&b=${b}`);
  t.is(after.status, 200);
  t.like(after.body.b, { archived: true, standing: 'Aborted' });
  t.regex(after.body.folders[0].notes.join('\n'), new RegExp(`svc/${b}: the worktree is archived; its work as kept when archived is compared`));
  const again = await s.post(`/api/runs/${a}/keep`, {});
  t.is(again.status, 200);
  t.is((await eventsOf(s, a, 'AttemptKept')).length, 1, 'a repeat records nothing');
});

test.serial('keep on a run that is not an attempt is a 400; on an unknown run a 404; over MCP the same', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const single = await s.post('/api/runs', { project: s.projectId, goal: 'x', workflow: 'two', start: false });
  const r = await s.post(`/api/runs/${single.body.runId}/keep`, {});
  t.is(r.status, 400);
  t.regex(r.body.detail, /not one of several attempts/);
  t.regex(textOf(await call(client, 'keep_attempt', { run: single.body.runId })), /not one of several attempts/);
  t.is((await s.post('/api/runs/nope/keep', {})).status, 404);
  t.regex((await s.post(`/api/runs/${single.body.runId}/keep`, { other: 1 })).body.detail, /unknown field/);
});
