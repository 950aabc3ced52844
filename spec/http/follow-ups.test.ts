import '../helpers/env.js';
import test from 'ava';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { mcpServer } from '../mcp/helpers/real.js';
import { control, detail, startRun, untilStanding } from '../helpers/steer.js';

// POST /api/runs/{id}/follow-ups and follow_up_run: one decoder, one facade call, the same
// refusals at both doors. The scripted harness stands in for the CLI (spec/fixtures/harness).

const shared = mcpServer();
test.after.always(async () => (await shared).close());

const succeeded = async (goal = '[write:one.txt=1][report:success]') => {
  const s = await shared;
  const runId = await startRun(s, { goal, workflow: 'two' });
  await untilStanding(s, runId, 'Succeeded');
  return runId;
};

const BAD_BODIES: readonly { body: unknown; says: RegExp }[] = [
  { body: {}, says: /^text: is required/ },
  { body: { text: '  \n' }, says: /^text: must be a non-blank string/ },
  { body: { text: 3 }, says: /^text: must be a non-blank string.*got 3/ },
  { body: { text: 'go on', runId: 'x' }, says: /unknown field: "?runId/ },
  { body: { text: 'go on', reason: 4 }, says: /reason/ },
  { body: ['go on'], says: /the body must be a JSON object \(got an array\)/ },
];

test('bad bodies are a 400 with detail, and the same arguments a tool error, and nothing is started', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const runId = await succeeded();
  for (const { body, says } of BAD_BODIES) {
    const r = await s.post(`/api/runs/${runId}/follow-ups`, body);
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(r.body.detail, says, JSON.stringify(body));
    if (Array.isArray(body)) continue;
    const res = await call(client, 'follow_up_run', { run: runId, ...(body as object) });
    t.true(res.isError, JSON.stringify(body));
    t.regex(textOf(res), new RegExp(says.source.replace('^', '').replace('field', 'argument')), JSON.stringify(body));
  }
  t.regex(textOf(await call(client, 'follow_up_run', { text: 'go on' })), /run: is required/);
  t.is((await detail(s, runId)).continuedBy, undefined, 'a refused follow-up made nothing');
});

test('an unknown run is a 404 and a tool error', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const r = await s.post('/api/runs/nope/follow-ups', { text: 'go on' });
  t.is(r.status, 404);
  t.regex(r.body.detail, /unknown run: "?nope/);
  const res = await call(client, 'follow_up_run', { run: 'nope', text: 'go on' });
  t.true(res.isError);
  t.regex(textOf(res), /unknown run/);
});

test('a run still going is a 409: follow up once it has ended, message it instead', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const runId = await s.running();
  const r = await s.post(`/api/runs/${runId}/follow-ups`, { text: 'go on' });
  t.is(r.status, 409);
  t.regex(r.body.detail, /still going: follow up once it has ended; message it instead/);
  const res = await call(client, 'follow_up_run', { run: runId, text: 'go on' });
  t.true(res.isError);
  t.regex(textOf(res), /still going/);
  await control(s, runId, 'Abort');
});

test('an archived run is a 409 saying its worktree is gone', async (t) => {
  const s = await shared;
  const runId = await succeeded();
  t.is((await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' })).status, 200);
  const r = await s.post(`/api/runs/${runId}/follow-ups`, { text: 'go on' });
  t.is(r.status, 409);
  t.regex(r.body.detail, /archived: its worktree is gone/);
});

test('a run that never got a worktree is a 409', async (t) => {
  const s = await shared;
  const r = await s.post(`/api/runs/${await s.ended()}/follow-ups`, { text: 'go on' });
  t.is(r.status, 409);
  t.regex(r.body.detail, /never got a worktree/);
});

test('a follow-up works the same worktree; while it goes, another follow-up of the chain is a 409 naming it', async (t) => {
  const s = await shared;
  const client = await s.connect();
  t.teardown(() => client.close());
  const first = await succeeded();
  const made = await s.post(`/api/runs/${first}/follow-ups`, { text: '[write:two.txt=2][silent]' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const live = made.body.runId as string;
  await untilStanding(s, live, 'Running');
  const dir = worktreeDir(s.home, first, basename(s.repo));
  const again = await s.post(`/api/runs/${first}/follow-ups`, { text: 'more' });
  t.is(again.status, 409);
  t.regex(again.body.detail, new RegExp(`run ${live} already continues this run's worktree`));
  const viaMcp = await call(client, 'follow_up_run', { run: first, text: 'more' });
  t.true(viaMcp.isError);
  t.regex(textOf(viaMcp), new RegExp(live));
  t.deepEqual((await detail(s, first)).continuedBy, [live]);
  t.is((await detail(s, live)).continues, first);
  t.is((await detail(s, live)).workflow, 'follow-up');

  const archiving = await s.post(`/api/runs/${first}/archive`, { state: 'Archived' });
  t.is(archiving.status, 409, 'archiving would remove the worktree the follow-up works in');
  t.regex(archiving.body.detail, new RegExp(`run ${live} is working in this run's worktree`));

  await control(s, live, 'Abort');
  await untilStanding(s, live, 'Aborted');
  const third = await call(client, 'follow_up_run', { run: live, text: '[report:success]' });
  t.falsy(third.isError, textOf(third));
  const thirdId = (third.structuredContent as { run: string }).run;
  await untilStanding(s, thirdId, 'Succeeded');
  t.is((await detail(s, thirdId)).continues, live);
  t.false((await detail(s, thirdId)).allowedActions.includes('Restart'), 'a follow-up is followed up again, not restarted');
  t.true((await detail(s, first)).allowedActions.includes('Restart'));
  t.deepEqual((await detail(s, live)).continuedBy, [thirdId]);
  t.true(existsSync(join(dir, 'two.txt')), 'the follow-up wrote into the first run\'s worktree');
});
