import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { GATED } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';

// Reviews over both doors: POST /api/runs/{run}/reviews and the submit_review tool refuse the same
// bad input in the same words, including a path or line that is not in the run's diff (read from the
// real worktree the scripted agent wrote). A review at a gate is the person's answer: the run goes on.

const test = anyTest as TestFn<{ s: McpServer; client: Client; run: string }>;

const GOAL = '[write:notes.txt=first line][report:success]';

test.before(async (t) => {
  const s = await mcpServer({ workflows: { gated: GATED } });
  const run = await startRun(s, { goal: GOAL, workflow: 'gated' });
  await eventually(() => detail(s, run), (d) => d.phase === 'AtGate');
  t.context = { s, client: await s.connect(), run };
});
test.after.always(async (t) => {
  await t.context.client?.close();
  await t.context.s?.close();
});

const ok = { path: 'notes.txt', side: 'new', line: 1, body: 'Say more.' };
const ROWS: readonly { readonly body: Record<string, unknown>; readonly says: RegExp }[] = [
  { body: { comments: [ok], zzUnknown: 1 }, says: /^unknown (field|argument): zzUnknown$/ },
  { body: {}, says: /^comments: is required/ },
  { body: { comments: 'all good' }, says: /^comments: must be an array of comments/ },
  { body: { comments: [] }, says: /^a review needs at least one comment$/ },
  { body: { comments: Array.from({ length: 51 }, () => ok) }, says: /^a review holds at most 50 comments \(got 51\)$/ },
  { body: { comments: [{ ...ok, side: 'both' }] }, says: /side: must be one of new, old/ },
  { body: { comments: [{ ...ok, line: 0 }] }, says: /line: must be an integer from 1/ },
  { body: { comments: [{ ...ok, line: 2, endLine: 1 }] }, says: /endLine 1 is before line 2/ },
  { body: { comments: [{ ...ok, line: 1, endLine: 600 }] }, says: /a comment spans at most 500 lines \(got 600\)/ },
  { body: { comments: [{ ...ok, body: ' ' }] }, says: /body: must be a non-blank string/ },
  { body: { comments: [{ ...ok, zzExtra: 1 }] }, says: /unknown field: zzExtra/ },
  { body: { comments: [ok], summary: '' }, says: /^summary: must be a non-blank string/ },
  { body: { comments: [ok, { ...ok, path: 'nope.txt' }] }, says: /^comments\.1\.path: "?nope\.txt"? is not in the run's diff$/ },
  { body: { comments: [{ ...ok, line: 5 }] }, says: /^comments\.0: line 5 of "?notes\.txt"? \(new side\) is not in the run's diff$/ },
  { body: { comments: [{ ...ok, endLine: 3 }] }, says: /^comments\.0: line 2 of "?notes\.txt"? \(new side\) is not in the run's diff$/ },
  { body: { comments: [{ ...ok, side: 'old' }] }, says: /^comments\.0: line 1 of "?notes\.txt"? \(old side\) is not in the run's diff$/ },
];

for (const row of ROWS) {
  test.serial(`submit_review ${JSON.stringify(row.body).slice(0, 90)}: the same refusal at both doors`, async (t) => {
    const { s, client, run } = t.context;
    const http = await s.post(`/api/runs/${run}/reviews`, row.body);
    t.is(http.status, 400, JSON.stringify(http.body));
    const said = String(http.body.detail);
    t.regex(said, row.says);
    const mcp = await call(client, 'submit_review', { run, ...row.body });
    t.true(mcp.isError, textOf(mcp));
    t.true(textOf(mcp).endsWith(said.replace(/^unknown field: zzUnknown/, 'unknown argument: zzUnknown')), textOf(mcp));
  });
}

test.serial('an unknown run is a 404 at both doors', async (t) => {
  const { s, client } = t.context;
  t.is((await s.post('/api/runs/nope/reviews', { comments: [ok] })).status, 404);
  t.true((await call(client, 'submit_review', { run: 'nope', comments: [ok] })).isError);
});

test.serial('a review at a gate is recorded with its quoted code, sends the run back to the agent step it came from, and shows in the thread', async (t) => {
  const { s, run } = t.context;
  const r = await s.post(`/api/runs/${run}/reviews`, { comments: [ok], summary: 'Otherwise fine.' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.like(r.body, { delivered: false, review: { summary: 'Otherwise fine.', comments: [{ path: 'notes.txt', line: 1, quote: 'first line', body: 'Say more.' }] } });
  t.regex(r.body.detail, /goes back to step work/);
  const messageId = (await history(s, run)).find((e) => e.type === 'ReviewSubmitted').data.messageId;
  // the agent step runs again, its turn opened with the review, and the run is back at the gate
  const events = await eventually(() => history(s, run), (es) => es.some((e) => e.type === 'StepStarted' && e.data.node === 'work' && e.data.messages?.includes(messageId)));
  const types = events.map((e) => e.type);
  const at = types.indexOf('ReviewSubmitted');
  t.deepEqual(types.slice(at, at + 4), ['ReviewSubmitted', 'MessageSent', 'StepInterrupted', 'Jumped']);
  await eventually(() => detail(s, run), (d) => d.phase === 'AtGate');
  const rows = (await s.get(`/api/runs/${run}/thread?pageSize=50`)).body.rows as { kind: string; text: string }[];
  const review = rows.filter((x) => x.kind === 'review');
  t.is(review.length, 1);
  t.regex(review[0]!.text, /notes\.txt:1: Say more\./);
  t.false(rows.some((x) => x.kind === 'message'), 'the review\'s message is not shown a second time');
  const read = await s.get(`/api/runs/${run}/reviews`);
  t.like(read.body.reviews[0].comments[0], { path: 'notes.txt', outdated: false });
});

test.serial('a review to an ended run with its worktree becomes a follow-up run carrying the review; one without a worktree is a 409', async (t) => {
  const { s, client } = t.context;
  const done = await startRun(s, { goal: '[write:done.txt=all done]', workflow: 'two' });
  await untilStanding(s, done, 'Succeeded');
  const r = await s.post(`/api/runs/${done}/reviews`, { comments: [{ path: 'done.txt', side: 'new', line: 1, body: 'Not quite (note 8812).' }] });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.like(r.body, { delivered: false, review: { comments: [{ quote: 'all done' }] } });
  const next = r.body.followUp.runId as string;
  t.is(r.body.followUp.url, `${s.url}/runs/${next}`);
  t.regex(r.body.detail, new RegExp(`follow-up run ${next}`));
  t.is(r.body.review.followUp, next);
  const follow = await detail(s, next);
  t.true(JSON.stringify(follow).includes(done), 'the follow-up names the run it continues');
  t.regex(follow.goal, /done\.txt:1[\s\S]*all done[\s\S]*Not quite \(note 8812\)\./, 'its goal is the review\'s message');
  // issue 32: titled as a person would title it, not with the raw prompt and its fences
  t.is(follow.title, `Review of ${(await detail(s, done)).title}: 1 comment on done.txt`);
  const rows = (await s.get(`/api/runs/${done}/thread?pageSize=50`)).body.rows as { kind: string; text: string }[];
  t.regex(rows.find((x) => x.kind === 'review')!.text, new RegExp(`sent to follow-up run ${next}`));
  await eventually(() => detail(s, next), (d) => ['Succeeded', 'Failed'].includes(d.standing));

  const ended = await s.ended();
  const http = await s.post(`/api/runs/${ended}/reviews`, { comments: [ok] });
  t.is(http.status, 409, JSON.stringify(http.body));
  t.regex(http.body.detail, /no worktree of its own any more/);
  const mcp = await call(client, 'submit_review', { run: ended, comments: [ok] });
  t.true(mcp.isError);
  t.regex(textOf(mcp), /no worktree of its own any more/);
});
