import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { mcpServer } from '../mcp/helpers/real.js';
import { STRICT } from '../helpers/server.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';

// POST /api/runs/{id}/forks and fork_run: one decoder, one facade call, the same refusals at both
// doors; a fork stands at the step after its step end, in worktrees restored from that step end's
// snapshot, and both runs name each other. The scripted harness stands in for the CLI.

// a command step that corrupts its worktree's index: git cannot snapshot that step end
const BREAKS = `digraph breaks {
  start [kind=start]
  spoil [kind=command, command="echo junk > \\"$(git rev-parse --git-path index)\\""]
  work  [kind=agent, prompt="[report:success]"]
  done  [kind=exit]
  start -> spoil -> work -> done
}`;

const shared = mcpServer({ workflows: { strict: STRICT, breaks: BREAKS } });
test.after.always(async () => (await shared).close());

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** a run of `two` (work, review) that wrote a file in step work and succeeded; and its step ends */
const succeeded = async (goal = '[write:one.txt=from work][report:success]') => {
  const s = await shared;
  const runId = await startRun(s, { goal, workflow: 'two' });
  await untilStanding(s, runId, 'Succeeded');
  const events = await history(s, runId);
  const ends = events.filter((e) => e.type === 'StepSucceeded' || e.type === 'StepFailed');
  return { runId, events, work: ends[0].seq as number, review: ends[1].seq as number };
};

const BAD_BODIES: readonly { body: unknown; says: RegExp }[] = [
  { body: {}, says: /^at: is required/ },
  { body: { at: 0 }, says: /^at: must be the seq of a step end \(a positive integer\).*got 0/ },
  { body: { at: 2.5 }, says: /^at: must be the seq of a step end/ },
  { body: { at: '5' }, says: /^at: must be the seq of a step end/ },
  { body: { at: 5, goal: ' ' }, says: /^goal: must be a non-blank string/ },
  { body: { at: 5, harness: 'gemini' }, says: /^harness: must be one of claude, codex, opencode/ },
  { body: { at: 5, note: '' }, says: /^note: must be a non-blank string/ },
  { body: { at: 5, runId: 'x' }, says: /unknown field: "?runId/ },
  { body: [5], says: /the body must be a JSON object \(got an array\)/ },
];

test('bad bodies are a 400 with detail, the same arguments a tool error, and nothing is forked', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const { runId } = await succeeded();
  for (const { body, says } of BAD_BODIES) {
    const r = await s.post(`/api/runs/${runId}/forks`, body);
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(r.body.detail, says, JSON.stringify(body));
    if (Array.isArray(body)) continue;
    const res = await call(client, 'fork_run', { run: runId, ...(body as object) });
    t.true(res.isError, JSON.stringify(body));
    t.regex(textOf(res), new RegExp(says.source.replace('^', '').replace('field', 'argument')), JSON.stringify(body));
  }
  t.regex(textOf(await call(client, 'fork_run', { at: 3 })), /run: is required/);
  t.is((await detail(s, runId)).forks, undefined, 'a refused fork made no run');
});

test('refusals: an unknown run 404, a seq that is no step end 409 listing the step ends, an archived run 409, nowhere to go 409', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const unknown = await s.post('/api/runs/nope/forks', { at: 3 });
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /unknown run: "?nope/);
  t.regex(textOf(await call(client, 'fork_run', { run: 'nope', at: 3 })), /unknown run/);

  const { runId, work, review } = await succeeded();
  const notEnd = await s.post(`/api/runs/${runId}/forks`, { at: 1 });
  t.is(notEnd.status, 409);
  t.is(notEnd.body.detail, `at 1 is not a step end of run ${runId}; its step ends (seq, step) are: ${work} (work), ${review} (review)`);
  const viaMcp = await call(client, 'fork_run', { run: runId, at: 1 });
  t.true(viaMcp.isError);
  t.regex(textOf(viaMcp), /is not a step end/);

  const failing = await startRun(s, { goal: '[report:failure]', workflow: 'strict' });
  await untilStanding(s, failing, 'Failed');
  const failedAt = (await history(s, failing)).find((e) => e.type === 'StepFailed').seq;
  const nowhere = await s.post(`/api/runs/${failing}/forks`, { at: failedAt });
  t.is(nowhere.status, 409);
  t.regex(nowhere.body.detail, /step work ended with failure and the workflow goes nowhere from there/);

  t.is((await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' })).status, 200);
  const archived = await s.post(`/api/runs/${runId}/forks`, { at: work });
  t.is(archived.status, 409);
  t.regex(archived.body.detail, /archived: its snapshots are gone/);
  t.is((await detail(s, runId)).forkable, undefined, 'an archived run offers no step end to fork');
});

test('a fork starts at the next step in a worktree restored from the snapshot, and both runs link', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const { runId, events, work } = await succeeded();
  const snap = events.find((e) => e.type === 'SnapshotTaken' && e.data.at === work);
  t.is(snap.data.ref, `refs/svc/snapshots/${runId}/${work}`);
  t.is(git(s.repo, 'rev-parse', snap.data.ref), snap.data.commit);
  // the last step's end is not offered: the workflow goes nowhere after it, so a fork would have nothing to run
  t.deepEqual((await detail(s, runId)).forkable.map((e: any) => e.node), ['work']);

  const made = await s.post(`/api/runs/${runId}/forks`, { at: work, note: 'again' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const fork = made.body.runId as string;
  t.is(made.body.url, `${s.url}/runs/${fork}`);
  await untilStanding(s, fork, 'Succeeded');
  const forkEvents = await history(s, fork);
  t.is(forkEvents[0].type, 'RunCreated');
  t.like(forkEvents[0].data.forkedFrom, { run: runId, at: work, step: 'work', node: 'review', note: 'again' });
  t.deepEqual(forkEvents.filter((e) => e.type === 'StepStarted').map((e) => e.data.node), ['review'], 'only the step after the step end ran');
  const dir = worktreeDir(s.home, fork, basename(s.repo));
  t.is(readFileSync(join(dir, 'one.txt'), 'utf8'), 'from work');
  t.is(git(dir, 'symbolic-ref', '--short', 'HEAD'), `svc/${fork}`);
  t.true(git(dir, 'status', '--porcelain').split('\n').includes('?? one.txt'), 'uncommitted, as the snapshot had it');
  t.deepEqual((await detail(s, fork)).forkedFrom, { run: runId, at: work, step: 'work', note: 'again' });
  t.deepEqual((await detail(s, runId)).forks, [fork]);

  const second = await call(client, 'fork_run', { run: runId, at: work, goal: 'another way [report:success]' });
  t.falsy(second.isError, textOf(second));
  const secondId = (second.structuredContent as { run: string }).run;
  t.deepEqual((await detail(s, runId)).forks, [fork, secondId]);
  t.is((await detail(s, secondId)).goal, 'another way [report:success]');
  await untilStanding(s, secondId, 'Succeeded');
});

test('archiving a run deletes its snapshot refs and nothing else: its branch and its forks\' refs stay', async (t) => {
  const s = await shared;
  const { runId, work } = await succeeded();
  const fork = (await s.post(`/api/runs/${runId}/forks`, { at: work })).body.runId as string;
  await untilStanding(s, fork, 'Succeeded');
  // other tests share the repository: only this run's and its fork's refs are compared
  const refs = () => git(s.repo, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter((r) => r.includes(runId) || r.includes(fork));
  t.true(refs().some((r) => r.startsWith(`refs/svc/snapshots/${runId}/`)));
  t.true(refs().some((r) => r.startsWith(`refs/svc/snapshots/${fork}/`)));
  const before = refs();
  t.is((await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' })).status, 200);
  const { eventually } = await import('../helpers/env.js');
  await eventually(async () => refs(), (now) => !now.some((r) => r.startsWith(`refs/svc/snapshots/${runId}/`)));
  t.deepEqual(refs(), before.filter((r) => !r.startsWith(`refs/svc/snapshots/${runId}/`)));
  t.true(refs().some((r) => r.startsWith(`refs/heads/svc/${runId} `)));
  t.true(refs().some((r) => r.startsWith(`refs/heads/svc/${fork} `)));
  t.true(existsSync(worktreeDir(s.home, fork, basename(s.repo))), 'the fork keeps its worktree');
});

test('the fork\'s first turn resumes the source\'s session on the same CLI, and starts afresh on another', async (t) => {
  const s = await shared;
  const { runId, events, work } = await succeeded();
  const source = events.find((e) => e.type === 'StepStarted' && e.data.node === 'work').data;
  const session = events.find((e) => e.type === 'StepSessionStarted').data.sessionId;
  const other = ['claude', 'codex', 'opencode'].find((h) => h !== source.harness);
  const same = (await s.post(`/api/runs/${runId}/forks`, { at: work })).body.runId as string;
  const fresh = (await s.post(`/api/runs/${runId}/forks`, { at: work, harness: other })).body.runId as string;
  await untilStanding(s, same, 'Succeeded');
  await untilStanding(s, fresh, 'Succeeded');
  const startOf = async (id: string) => (await history(s, id)).find((e) => e.type === 'StepStarted').data;
  t.like(await startOf(same), { node: 'review', harness: source.harness, resumeSession: session });
  const afresh = await startOf(fresh);
  t.like(afresh, { node: 'review', harness: other });
  t.is(afresh.resumeSession, undefined, 'another CLI cannot read the session: a fresh one, told what the source did');
});

test('a snapshot that cannot be taken is noted in the thread and the run goes on; that step end is not forkable', async (t) => {
  const s = await shared;
  const runId = await startRun(s, { goal: 'go', workflow: 'breaks' });
  const done = await untilStanding(s, runId, 'Succeeded');
  const events = await history(s, runId);
  const spoiled = events.find((e) => e.type === 'StepSucceeded' && e.data.node === 'spoil');
  const failed = events.find((e) => e.type === 'SnapshotFailed');
  t.like(failed?.data, { node: 'spoil', at: spoiled.seq });
  t.regex(failed.data.reason, /index/);
  t.true(failed.seq < events.find((e) => e.type === 'StepStarted' && e.data.node === 'work').seq);
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=100`)).body.rows as any[];
  t.true(thread.some((r) => r.kind === 'note' && /could not snapshot folder .* after step spoil/.test(r.text)));
  t.false((done.forkable ?? []).some((e: any) => e.node === 'spoil'));
  const r = await s.post(`/api/runs/${runId}/forks`, { at: spoiled.seq });
  t.is(r.status, 409);
  t.regex(r.body.detail, /there is no snapshot of folder .* at step spoil/);
});
