import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import { ask, supKit, textOf, type SupKit } from './kit.js';

// The four supervisor-only tools over the official SDK client: notes (≤ 20,000 characters),
// hand_up into the global chat, hand_over_run recorded on the run (the global one owns it after),
// and the global supervisor's activity lines (the 50 most recent, oldest first).

const test = anyTest as TestFn<{ k: SupKit; sp: Client; global: Client }>;

test.before(async (t) => {
  const k = await supKit();
  t.context = { k, sp: await k.client(await k.key(k.sp)), global: await k.client(await k.key('global')) };
});
test.after.always(async (t) => {
  await t.context.k?.close();
});

test.serial('keep_supervisor_notes replaces the notes; 20,001 characters are refused and change nothing', async (t) => {
  const { k, sp } = t.context;
  t.deepEqual((await ask(sp, 'keep_supervisor_notes', { text: 'first' })).structuredContent, { kept: true });
  t.deepEqual((await ask(sp, 'keep_supervisor_notes', { text: 'x'.repeat(20_000) })).structuredContent, { kept: true });
  const long = await ask(sp, 'keep_supervisor_notes', { text: 'y'.repeat(20_001) });
  t.true(long.isError);
  t.regex(textOf(long), /at most 20000 characters/);
  t.is((await k.s.get(`/api/supervisors/${k.sp}`)).body.notes, 'x'.repeat(20_000));
  const kept = k.s.service.core.journal.read(`supervisor:${k.sp}`).filter((e) => e.type === 'SupervisorNotesKept').at(-1)?.data as any;
  t.deepEqual(kept.source, { via: 'mcp', sender: `supervisor ${k.sp}` });
});

test.serial("hand_up arrives in the global supervisor's chat as a message from the project supervisor", async (t) => {
  const { k, sp } = t.context;
  const r = await ask(sp, 'hand_up', { text: 'the build is red everywhere' });
  t.deepEqual(r.structuredContent, { delivered: true });
  t.like(k.chat('global').at(-1), { type: 'HandedUp', data: { from: k.sp, project: k.s.projectId, text: 'the build is red everywhere' } });
  t.true((await ask(sp, 'hand_up', { text: '   ' })).isError, 'blank text is refused');
});

test.serial('hand_over_run: needs a reason and a run it owns; then the run is recorded as handed over and the global one owns it', async (t) => {
  const { k, sp, global } = t.context;
  const run = await k.gateRun(k.s.projectId);
  const theirs = await k.gateRun(k.otherProject);
  t.regex(textOf(await ask(sp, 'hand_over_run', { run })), /needs a reason/);
  t.regex(textOf(await ask(sp, 'hand_over_run', { run: theirs, reason: 'x' })), /owned by supervisor global/);
  t.regex(textOf(await ask(global, 'hand_over_run', { run: theirs, reason: 'x' })), /project supervisors only/);
  const r = await ask(sp, 'hand_over_run', { run, reason: 'needs a wider view' });
  t.falsy(r.isError, textOf(r));
  t.like(r.structuredContent, { handedOver: true, run: { id: run, owner: 'global' } });
  const detail = k.s.service.getRun(run);
  t.true(!isLeft(detail) && detail.right.owner === 'global');
  t.like(k.s.service.core.journal.read(`run:${run}`).at(-1), { type: 'RunHandedOver', data: { from: k.sp, to: 'global', reason: 'needs a wider view', by: { kind: 'supervisor', name: k.sp } } });
  const history = (await k.s.get(`/api/runs/${run}/history?pageSize=5`)).body.events.map((e: { type: string }) => e.type);
  t.true(history.includes('RunHandedOver'), history.join(','));
  t.like(k.chat('global').at(-1), { type: 'RunReceived', data: { from: k.sp, run, reason: 'needs a wider view' } });
  // ownership moved: the project supervisor may no longer act on it; the global one reads it in full
  t.regex(textOf(await ask(sp, 'message_run', { run, text: 'hi', delivery: 'Hold', reason: 'x' })), /owned by supervisor global/);
  t.falsy((await ask(global, 'read_run_history', { run })).isError);
});

test.serial("read_supervisor_activity: project supervisors' actions, the 50 most recent, oldest first", async (t) => {
  const { sp, global } = t.context;
  for (let i = 1; i <= 55; i++) await ask(sp, 'hand_up', { text: `note ${i}` });
  const r = await ask(global, 'read_supervisor_activity', {});
  t.falsy(r.isError, textOf(r));
  const lines = r.structuredContent?.['lines'] as string[];
  t.is(lines.length, 50);
  t.regex(lines[49]!, /hand_up: handed up: note 55$/);
  t.regex(lines[45]!, /handed up: note 51$/);
  t.true(lines.every((l) => l.length <= 200));
});
