import '../helpers/env.js';
import test from 'ava';
import { testServer } from '../helpers/server.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';

// A project's daily budget: once today's known spend of its runs reaches it, its new runs stay
// Queued (not failed) with the reason, while runs of other projects go on; raising it releases them.
// The stand-in harness reports each turn's cost ([cost:USD]), as claude and opencode do.

const ONE = `digraph one {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work
  work -> done [condition="outcome=success"]
}`;

test('a project daily budget holds its next run queued with the reason; a raise releases it', async (t) => {
  t.timeout(60_000);
  const s = await testServer({ workflows: { one: ONE } });
  t.teardown(() => s.close());
  const patch = (body: unknown) => s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify(body));
  t.is((await patch({ dailyBudgetUsd: 1 })).status, 200);
  t.is((await s.get(`/api/projects/${s.projectId}`)).body.dailyBudgetUsd, 1);

  const first = await startRun(s, { goal: 'spend [cost:1.5]', workflow: 'one' });
  await untilStanding(s, first, 'Succeeded');
  const usage = (await history(s, first)).filter((e) => e.type === 'UsageRecorded').map((e) => e.data.cost);
  t.deepEqual(usage, [{ _tag: 'Reported', usd: 1.5 }]);

  const second = await startRun(s, { goal: 'next [cost:0.1]', workflow: 'one' });
  const held = await eventually(() => detail(s, second), (d) => d.waiting !== undefined);
  t.is(held.standing, 'Queued', 'queued, not failed');
  t.is(held.waiting, 'waiting: project daily budget $1.00 reached (spent $1.50)');
  const board = (await s.get('/api/board')).body;
  t.true(JSON.stringify(board).includes('project daily budget $1.00 reached'), 'the board says why');

  t.is((await patch({ dailyBudgetUsd: 5 })).status, 200);
  const done = await untilStanding(s, second, 'Succeeded');
  t.is(done.waiting, undefined);
});

test('dailyBudgetUsd: 0, -1, "x" are refused with a detail; null removes the budget', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const patch = (body: unknown) => s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify(body));
  for (const bad of [0, -1, 'x']) {
    const r = await patch({ dailyBudgetUsd: bad });
    t.is(r.status, 400, String(bad));
    t.regex(r.body.detail, /dailyBudgetUsd/);
  }
  t.is((await patch({ dailyBudgetUsd: 2 })).body.dailyBudgetUsd, 2);
  t.false('dailyBudgetUsd' in (await patch({ dailyBudgetUsd: null })).body);
});
