import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { threadRow } from '../../projections/thread.js';
import { ask, supKit, type SupKit } from './kit.js';

// Rule 1 (docs/supervisors.md): every supervisor action gives a reason, "recorded on the run". The
// thread, which is what people read, shows it with the action, not only the history.

interface World { readonly k: SupKit; readonly sp: Client; readonly own: string }
const test = anyTest as TestFn<World>;

test.before(async (t) => {
  const k = await supKit();
  await k.patch(k.sp, { runCap: 20 });
  await k.setTier(k.sp, 'DoIt');
  const own = await k.gateRun(k.s.projectId, 'own run');
  t.context = { k, own, sp: await k.client(await k.key(k.sp)) };
});
test.after.always(async (t) => { await t.context.k?.close(); });

const threadOf = async (w: World, run: string): Promise<{ kind: string; author: string; text: string; reason?: string }[]> => {
  const res = await w.k.s.get(`/api/runs/${run}/thread?pageSize=200`);
  if (res.status !== 200) throw new Error(`thread: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rows;
};

test('a message and a revised goal show the supervisor\'s reason in the thread', async (t) => {
  const w = t.context;
  t.falsy((await ask(w.sp, 'message_run', { run: w.own, text: 'look at the tests first', delivery: 'Hold', reason: 'the tests were red' })).isError);
  t.falsy((await ask(w.sp, 'revise_goal', { run: w.own, goal: 'own run, smaller', reason: 'the scope was too wide' })).isError);
  const rows = await threadOf(w, w.own);
  t.like(rows.find((r) => r.text === 'look at the tests first'), { kind: 'message', author: 'supervisor', reason: 'the tests were red' });
  t.like(rows.find((r) => r.text === 'own run, smaller'), { kind: 'goal-revised', author: 'supervisor', reason: 'the scope was too wide' });
});

test('a run a supervisor starts shows why in its first row', async (t) => {
  const w = t.context;
  const started = await ask(w.sp, 'start_run', { project: w.k.s.projectId, goal: 'started by sp', workflow: 'gate', reason: 'more hands' });
  t.falsy(started.isError);
  const run = String(started.structuredContent?.['run']);
  const rows = await threadOf(w, run);
  t.like(rows[0], { kind: 'goal', author: 'supervisor', text: 'started by sp', reason: 'more hands' });
});

test('a person\'s message without a reason has no reason field', async (t) => {
  const w = t.context;
  t.is((await w.k.s.post(`/api/runs/${w.own}/messages`, { text: 'from a person', delivery: 'Hold' })).status, 200);
  const row = (await threadOf(w, w.own)).find((r) => r.text === 'from a person');
  t.like(row, { kind: 'message', author: 'person' });
  t.false('reason' in row!);
});

// secure_run_work records its note, reason included, as ServiceNoted (lib/service/run-git.ts); it
// needs an origin remote to act at all, so the row is checked on the fold itself.
test('secured work\'s note, with its reason, is a thread row', (t) => {
  const text = 'work secured by supervisor s1: before the refactor';
  t.deepEqual(threadRow({ type: 'ServiceNoted', data: { text } }), { kind: 'note', author: 'service', text });
});
