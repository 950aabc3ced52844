import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendChat } from '../../lib/supervisors/chat.js';
import { ask, supKit, textOf, type SupKit } from './kit.js';

// Ask me first, end to end: a supervisor's call over MCP posts a card and does nothing; a person
// approves or denies it over HTTP. Approve carries the call out as the supervisor (Applied, or
// Stale when the run moved meanwhile); Deny does nothing. The decision lands in the chat.

const test = anyTest as TestFn<{ k: SupKit; sp: Client }>;

test.before(async (t) => {
  const k = await supKit();
  t.context = { k, sp: await k.client(await k.key(k.sp)) };
});
test.after.always(async (t) => {
  await t.context.k?.close();
});

const position = (k: SupKit, run: string): string => {
  const r = k.s.service.getRun(run);
  if (isLeft(r)) throw new Error('no run');
  return r.right.position;
};

const cardOf = async (sp: Client, tool: string, args: object): Promise<string> => {
  const a = await ask(sp, tool, args);
  if (a.isError || a.structuredContent?.['awaitingApproval'] !== true) throw new Error(textOf(a));
  return String(a.structuredContent['card']);
};

const decide = (k: SupKit, card: string, body: object) =>
  k.s.send('POST', `/api/supervisors/${k.sp}/approvals/${card}`, JSON.stringify(body), { 'content-type': 'application/json', 'svc-setting-source': 'Ada' });

test.serial('approved: the control is carried out as the supervisor, with its reason; the decision lands in its chat', async (t) => {
  const { k, sp } = t.context;
  const run = await k.busyRun(k.s.projectId);
  const card = await cardOf(sp, 'control_run', { run, position: position(k, run), action: 'Pause', reason: 'lunch' });
  t.is(k.standing(run), 'Running', 'nothing happens before the decision');
  const open = (await k.s.get(`/api/supervisors/${k.sp}/approvals`)).body.approvals;
  t.like(open[0], { card, tool: 'control_run', run, reason: 'lunch', args: { action: 'Pause' } });
  const r = await decide(k, card, { decision: 'Approve', note: 'fine' });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.like(r.body, { card, decided: { decision: 'Approve', note: 'fine', sender: 'Ada', result: 'Applied' } });
  t.is(k.standing(run), 'Paused');
  const paused = k.s.service.core.journal.read(`run:${run}`).filter((e) => e.type === 'RunPaused').at(-1)?.data;
  t.like(paused, { reason: 'lunch', by: { kind: 'supervisor', name: k.sp } });
  t.like(k.chat(k.sp).at(-1), { type: 'ApprovalDecided', data: { cardId: card, decision: 'Approve', result: 'Applied' } });
  // the same decision again answers the card as it stands; the other one is refused
  const again = await decide(k, card, { decision: 'Approve' });
  t.is(again.status, 200);
  t.is(k.chat(k.sp).filter((e) => e.type === 'ApprovalDecided').length, 1);
  const other = await decide(k, card, { decision: 'Deny' });
  t.is(other.status, 409);
  t.regex(other.body.detail, /already decided: Approve/);
});

test.serial('approved: a message card is issued as the message command, as the supervisor', async (t) => {
  const { k, sp } = t.context;
  const run = await k.busyRun(k.s.projectId);
  const card = await cardOf(sp, 'message_run', { run, text: 'mind the tests', delivery: 'Hold', reason: 'nudge' });
  const r = await decide(k, card, { decision: 'Approve' });
  t.like(r.body, { decided: { decision: 'Approve', result: 'Applied', detail: 'done' } });
  const sent = k.s.service.core.journal.read(`run:${run}`).filter((e) => e.type === 'MessageSent').at(-1)?.data;
  t.like(sent, { text: 'mind the tests', delivery: 'Hold', reason: 'nudge', by: { kind: 'supervisor', name: k.sp } });
});

test.serial('approved: an update_run_from_base card is issued as the update command, as the supervisor: the base\'s new commit is in the run\'s branch', async (t) => {
  const { k, sp } = t.context;
  const run = await k.gateRun(k.s.projectId);
  writeFileSync(join(k.s.repo, 'moved.txt'), 'the base moved on\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: k.s.repo, stdio: 'pipe' }).toString().trim();
  git('add', '-A');
  git('-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '-m', 'moved');
  const card = await cardOf(sp, 'update_run_from_base', { run, mode: 'merge', reason: 'main moved' });
  t.false(k.s.service.core.journal.read(`run:${run}`).some((e) => e.type === 'BaseUpdated'), 'nothing before the decision');
  const r = await decide(k, card, { decision: 'Approve' });
  t.like(r.body, { decided: { decision: 'Approve', result: 'Applied', detail: 'done' } });
  const updated = k.s.service.core.journal.read(`run:${run}`).filter((e) => e.type === 'BaseUpdated').at(-1)?.data as { head: string; by: unknown } | undefined;
  t.like(updated, { mode: 'merge', by: { kind: 'supervisor', name: k.sp } });
  t.notThrows(() => git('merge-base', '--is-ancestor', 'HEAD', updated!.head), 'the base\'s commit is in the run\'s branch');
});

test.serial('approved, but the card\'s recorded arguments do not decode: Refused with what is wrong, nothing done', async (t) => {
  const { k } = t.context;
  const run = await k.busyRun(k.s.projectId);
  appendChat(k.s.service.core.journal, k.sp, [{ type: 'ApprovalRequested', data: { cardId: 'c-bad', tool: 'message_run', run, args: { run, text: '  ', delivery: 'Hold', reason: 'x' }, reason: 'x' } }], new Date().toISOString());
  const r = await decide(k, 'c-bad', { decision: 'Approve' });
  t.like(r.body, { decided: { decision: 'Approve', result: 'Refused' } });
  t.regex(r.body.decided.detail, /the card's arguments for message_run no longer decode: text/);
  t.false(k.s.service.core.journal.read(`run:${run}`).some((e) => e.type === 'MessageSent'));
});

test.serial('approved after the run moved: Stale, recorded on the card, nothing applied', async (t) => {
  const { k, sp } = t.context;
  const run = await k.busyRun(k.s.projectId);
  const card = await cardOf(sp, 'control_run', { run, position: position(k, run), action: 'Abort', reason: 'stuck' });
  const moved = await k.s.post(`/api/runs/${run}/control`, { position: position(k, run), action: 'Pause' });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  const r = await decide(k, card, { decision: 'Approve' });
  t.like(r.body, { decided: { decision: 'Approve', result: 'Stale' } });
  t.is(k.standing(run), 'Paused', 'the abort was not applied');
  t.like((await k.s.get(`/api/supervisors/${k.sp}/approvals`)).body.approvals.find((c: { card: string }) => c.card === card), { decided: { result: 'Stale' } });
});

test.serial('denied: nothing happens, the note and the decision are recorded', async (t) => {
  const { k, sp } = t.context;
  const run = await k.gateRun(k.s.projectId);
  const card = await cardOf(sp, 'message_run', { run, text: 'go faster', delivery: 'Hold', reason: 'nudge' });
  const r = await decide(k, card, { decision: 'Deny', note: 'leave it be' });
  t.like(r.body, { decided: { decision: 'Deny', note: 'leave it be', result: 'Denied' } });
  t.false(k.s.service.core.journal.read(`run:${run}`).some((e) => e.type === 'MessageSent'));
  t.like(k.chat(k.sp).at(-1), { type: 'ApprovalDecided', data: { decision: 'Deny', result: 'Denied', note: 'leave it be' } });
});

test.serial('approved, but the supervisor was switched off meanwhile: Refused, with the rule in the detail', async (t) => {
  const { k, sp } = t.context;
  const run = await k.gateRun(k.s.projectId);
  const card = await cardOf(sp, 'resolve_run', { run, reason: 'done with it' });
  await k.patch(k.sp, { enabled: false });
  const r = await decide(k, card, { decision: 'Approve' });
  await k.patch(k.sp, { enabled: true });
  t.like(r.body, { decided: { result: 'Refused' } });
  t.regex(r.body.decided.detail, /switched off/);
});

test.serial('GET /may answers with the same decide: the tier, or why not', async (t) => {
  const { k } = t.context;
  const run = await k.gateRun(k.s.projectId);
  const may = async (q: string) => (await k.s.get(`/api/supervisors/${k.sp}/may?${q}`));
  t.deepEqual((await may(`tool=message_run&run=${run}`)).body, { allowed: true, tier: 'AskFirst', setting: 'messageAndControl', detail: null });
  await k.patch(k.sp, { actions: { archiveRuns: 'Never', startRuns: 'DoIt' } });
  t.like((await may(`tool=archive_run&run=${run}`)).body, { allowed: false, tier: null });
  t.like((await may(`tool=start_run&project=${k.s.projectId}`)).body, { allowed: true, tier: 'DoIt' });
  const elsewhere = (await may(`tool=start_run&project=${k.otherProject}`)).body;
  t.false(elsewhere.allowed);
  t.regex(elsewhere.detail, /would be owned by supervisor global/);
  t.like((await may(`tool=control_run&action=ChangeHarness&harness=claude&run=${run}`)).body, { allowed: false });
});

const BAD: readonly { name: string; method: string; path: (k: SupKit) => string; body?: string; status: number; detail: RegExp }[] = [
  { name: 'an unknown card', method: 'POST', path: (k) => `/api/supervisors/${k.sp}/approvals/nope`, body: '{"decision":"Approve"}', status: 404, detail: /unknown approval card/ },
  { name: 'cards of an unknown supervisor', method: 'GET', path: () => '/api/supervisors/nope/approvals', status: 404, detail: /unknown supervisor/ },
  { name: 'a decision that is not one', method: 'POST', path: (k) => `/api/supervisors/${k.sp}/approvals/c1`, body: '{"decision":"Maybe"}', status: 400, detail: /decision/ },
  { name: 'no decision', method: 'POST', path: (k) => `/api/supervisors/${k.sp}/approvals/c1`, body: '{}', status: 400, detail: /decision is required/ },
  { name: 'an unknown field', method: 'POST', path: (k) => `/api/supervisors/${k.sp}/approvals/c1`, body: '{"decision":"Deny","why":"x"}', status: 400, detail: /unknown field "why"/ },
  { name: 'a note that is not text', method: 'POST', path: (k) => `/api/supervisors/${k.sp}/approvals/c1`, body: '{"decision":"Deny","note":3}', status: 400, detail: /note/ },
  { name: 'may without a tool', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may`, status: 400, detail: /tool must be one of/ },
  { name: 'may with a reading tool', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may?tool=get_run&run=x`, status: 400, detail: /tool must be one of/ },
  { name: 'may without run', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may?tool=message_run`, status: 400, detail: /needs run/ },
  { name: 'may on an unknown run', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may?tool=message_run&run=nope`, status: 404, detail: /unknown run/ },
  { name: 'may with an unknown parameter', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may?tool=message_run&run=x&colour=1`, status: 400, detail: /unknown query parameter colour/ },
  { name: 'may with a bad harness', method: 'GET', path: (k) => `/api/supervisors/${k.sp}/may?tool=control_run&action=ChangeHarness&harness=gemini&run=x`, status: 400, detail: /harness must be one of/ },
];

for (const row of BAD) {
  test.serial(`bad input: ${row.name} is ${row.status} with a detail`, async (t) => {
    const { k } = t.context;
    const chat = k.chat(k.sp).length;
    const r = await k.s.send(row.method, row.path(k), row.body, row.body !== undefined ? { 'content-type': 'application/json' } : {});
    t.is(r.status, row.status, JSON.stringify(r.body));
    t.regex(r.body.detail, row.detail);
    t.is(k.chat(k.sp).length, chat, 'nothing recorded');
  });
}
