import test from 'ava';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer, type TestServer } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The board's rows say what a person triaging needs (issue 19): age, how long a run ran, its
// harness, its last activity and why a failed run failed, from the board route (GET /api/board)
// and as shown on the Runs page; a run created without starting has Start, and several are started
// at once with the bulk Start. Real Chromium against the real server; screenshots in /tmp.

test.after.always(closeBrowser);

const board = async (s: TestServer) => (await s.get('/api/board')).body as any[];
const rowOf = async (s: TestServer, runId: string) => (await board(s)).find((r) => r.runId === runId);

const setUp = async () => {
  const s = await testServer({ workflows: { strict: STRICT } });
  const failed = await startRun(s, { title: 'Failing run', goal: '[fail]', workflow: 'strict', harness: 'codex' });
  const done = await startRun(s, { title: 'Done run', goal: 'all good', workflow: 'linear', harness: 'opencode' });
  await untilStanding(s, failed, 'Failed');
  await untilStanding(s, done, 'Succeeded');
  const later = [
    await startRun(s, { title: 'Later one', goal: 'not yet', workflow: 'linear', start: false }),
    await startRun(s, { title: 'Later two', goal: 'not yet', workflow: 'linear', start: false }),
    await startRun(s, { title: 'Later three', goal: 'not yet', workflow: 'linear', start: false }),
  ];
  return { s, failed, done, later };
};

test('the board route gives each row its times, harness, a failure\'s reason and whether it can start', async (t) => {
  const { s, failed, done, later } = await setUp();
  t.teardown(() => s.close());
  const f = await rowOf(s, failed);
  t.is(f.harness, 'codex');
  t.is(f.endReason, (await s.get(`/api/runs/${failed}/history?pageSize=200`)).body.events.find((e: any) => e.type === 'RunFailed').data.reason);
  t.true(f.endReason.length > 0);
  t.true(Date.parse(f.startedAt) >= Date.parse(f.createdAt) && Date.parse(f.endedAt) >= Date.parse(f.startedAt));
  t.false(f.canStart);
  const d = await rowOf(s, done);
  t.is(d.harness, 'opencode');
  t.is(d.endReason, null, 'a run that succeeded has no reason to show');
  t.is(typeof d.endedAt, 'string');
  const c = await rowOf(s, later[0]!);
  t.like(c, { standing: 'Created', canStart: true, startedAt: null, endedAt: null, endReason: null });
});

for (const viewport of VIEWPORTS) {
  test(`rows show age, duration, harness, last activity and a failure's reason; Start and bulk Start (${viewport.name})`, async (t) => {
    const { s, failed, done, later } = await setUp();
    t.teardown(() => s.close());
    const app = await openApp(t, { viewport, server: s });
    await app.goto('/');
    const row = (id: string) => app.page.locator(`.board-row[data-run="${id}"]`);
    await row(failed).waitFor();
    const reason = (await rowOf(s, failed)).endReason as string;
    await row(failed).getByText(`Failed: ${reason}`).waitFor();
    for (const id of [failed, done]) {
      const text = await row(id).locator('.board-times').textContent() ?? '';
      t.regex(text, /^created (just now|\d+ (s|min|h|d) ago) · ran \d+ (d|h|min|s)( \d+ (h|min|s))? · (codex|opencode)( · (\$\d+\.\d\d|<\$0\.01)( \+ \d+ turns? unknown)?| · cost unknown \(\d+ turns? unknown\))? · last activity (just now|\d+ (s|min|h|d) ago)$/);
    }
    t.regex(await row(done).locator('.board-times').textContent() ?? '', /opencode/);
    t.is(await row(done).locator('.board-reason').count(), 0);
    // runs created without starting: a Start each, and a checkbox for the bulk Start
    const bulk = app.page.getByRole('button', { name: /^Start selected/ });
    t.is(await bulk.textContent(), 'Start selected (0)');
    t.true(await bulk.isDisabled());
    t.is(await app.page.getByRole('button', { name: /^Start: / }).count(), 3);
    await app.axe(t);
    t.true(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await shot(app.page, `/tmp/runpage-board-${viewport.width}.png`, { fullPage: true });

    await app.page.getByRole('checkbox', { name: 'Select Later one' }).check();
    await app.page.getByRole('checkbox', { name: 'Select Later three' }).check();
    await bulk.click();
    // (in the board's order: runs not started, newest first)
    await app.page.getByRole('status').getByText('Started “Later three”, “Later one”: they join the queue.').waitFor();
    for (const id of [later[0]!, later[2]!]) await eventually(() => detail(s, id), (r) => r.standing !== 'Created');
    t.is((await detail(s, later[1]!)).standing, 'Created', 'the run not picked stays as it was');
    await row(later[1]!).getByRole('button', { name: 'Start: Later two' }).click();
    await untilStanding(s, later[1]!, 'Succeeded');
    await app.page.getByRole('status').getByText('Started “Later two”: it joins the queue.').waitFor();
    await app.page.getByRole('button', { name: /^Start selected/ }).waitFor({ state: 'detached' });
    app.noErrors(t);
  });
}
