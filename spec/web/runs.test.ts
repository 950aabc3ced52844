import anyTest, { type TestFn } from 'ava';
import { setRunCap } from '../helpers/http-kit.js';
import { GATED, STRICT, testServer, type TestServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, PHONE, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The Runs page in real Chromium: runs in every standing made by the scripted harness, sorted
// into the triage groups; filters; MoveToFront; archived runs on request; live changes over the
// push stream; and a group of many runs rendered a page at a time.

const test = anyTest as TestFn<{ s: TestServer; ids: Record<string, string> }>;

test.before(async (t) => {
  const s = await testServer({ workflows: { gated: GATED, strict: STRICT } });
  const ids: Record<string, string> = {};
  ids['question'] = await startRun(s, { title: 'Question run', goal: '[ask:Which way?|left|right]', workflow: 'linear' });
  ids['gate'] = await startRun(s, { title: 'Gate run', goal: 'pass me', workflow: 'gated' });
  ids['failed'] = await startRun(s, { title: 'Failing run', goal: '[fail]', workflow: 'strict' });
  ids['done'] = await startRun(s, { title: 'Done run', goal: 'all good', workflow: 'linear' });
  ids['busy'] = await startRun(s, { title: 'Busy run', goal: '[silent]', workflow: 'linear' });
  await untilStanding(s, ids['question']!, 'Question');
  await untilStanding(s, ids['gate']!, 'Paused');
  await untilStanding(s, ids['failed']!, 'Failed');
  await untilStanding(s, ids['done']!, 'Succeeded');
  await untilStanding(s, ids['busy']!, 'Running');
  await setRunCap(s, 3);
  ids['q1'] = await startRun(s, { title: 'Queued one', goal: 'wait your turn', workflow: 'linear' });
  ids['q2'] = await startRun(s, { title: 'Queued two', goal: 'wait your turn', workflow: 'linear' });
  ids['later'] = await startRun(s, { title: 'Later run', goal: 'not yet', workflow: 'linear', start: false });
  await untilStanding(s, ids['q2']!, 'Queued');
  t.context = { s, ids };
});
test.after.always(async (t) => {
  await closeBrowser();
  await t.context.s?.close();
});

const groupTitles = async (app: Awaited<ReturnType<typeof openApp>>, group: string) =>
  app.page.locator(`[data-group="${group}"] .board-row .title`).allTextContents();

for (const viewport of VIEWPORTS) {
  test.serial(`runs are grouped for triage, and the page passes axe (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, server: t.context.s });
    await app.goto('/');
    await app.page.locator('[data-group="needs"] .board-row').nth(2).waitFor();
    t.deepEqual((await groupTitles(app, 'needs')).sort(), ['Failing run', 'Gate run', 'Question run']);
    t.deepEqual(await groupTitles(app, 'active'), ['Busy run']);
    t.deepEqual(await groupTitles(app, 'queued'), ['Queued one', 'Queued two', 'Later run'], 'queue order, then runs not started');
    t.deepEqual(await groupTitles(app, 'done'), ['Done run']);
    const needs = app.page.locator('[data-group="needs"]');
    t.is(await needs.getByRole('heading', { level: 2 }).textContent(), 'Needs you (3)');
    t.is(await needs.locator(`[data-run="${t.context.ids['gate']}"] .chip`).textContent(), 'At a gate');
    const queued = app.page.locator('[data-group="queued"]');
    t.is(await queued.getByRole('button', { name: /^Move to front/ }).count(), 2, 'MoveToFront on queued runs only');
    await app.axe(t);
    t.true(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await shot(app.page, `${process.env['SVC_SHOTS']}/runs-${viewport.width}.png`, { fullPage: true });
    app.noErrors(t);
  });
}

test.serial('filters by text, project, workflow and standing, kept in the address', async (t) => {
  const app = await openApp(t, { viewport: PHONE, server: t.context.s });
  await app.goto('/');
  await app.page.locator('.board-row').first().waitFor();
  const titles = () => app.page.locator('.board-row .title').allTextContents();
  const search = app.page.getByRole('searchbox', { name: 'Search' });
  await search.fill('gate');
  await app.page.waitForURL((u) => u.search === '?q=gate');
  t.deepEqual(await titles(), ['Gate run']);
  await search.fill('');
  await app.page.getByRole('combobox', { name: 'Workflow' }).selectOption('strict');
  await app.page.waitForFunction(() => document.querySelectorAll('.board-row').length === 1);
  t.deepEqual(await titles(), ['Failing run']);
  await app.page.getByRole('combobox', { name: 'Workflow' }).selectOption('');
  await app.page.getByRole('combobox', { name: 'Standing' }).selectOption('Queued');
  await app.page.waitForFunction(() => document.querySelectorAll('.board-row').length === 2);
  t.deepEqual(await titles(), ['Queued one', 'Queued two']);
  await app.goto('/?project=nope');
  await app.page.getByText('0 of').waitFor();
  await app.goto(`/?project=${t.context.s.projectId}&standing=Succeeded`);
  await app.page.waitForFunction(() => document.querySelectorAll('.board-row').length === 1);
  t.deepEqual(await titles(), ['Done run']);
  t.is(await app.page.getByRole('combobox', { name: 'Project' }).inputValue(), t.context.s.projectId);
  await app.axe(t);
  app.noErrors(t);
});

test.serial('MoveToFront reorders the queue live, and the page follows runs as they move', async (t) => {
  const { s, ids } = t.context;
  const app = await openApp(t, { viewport: DESKTOP, server: s });
  await app.goto('/');
  await app.page.locator('[data-group="queued"] .board-row').nth(2).waitFor();
  await app.page.getByRole('button', { name: 'Move to front: Queued two' }).click();
  await app.page.getByRole('status').getByText('moved to the front').waitFor();
  await app.page.waitForFunction(() => document.querySelector('[data-group="queued"] .board-row .title')?.textContent === 'Queued two');
  t.deepEqual(await groupTitles(app, 'queued'), ['Queued two', 'Queued one', 'Later run']);
  t.regex(await app.page.locator(`[data-run="${ids['q2']}"] .board-meta`).textContent() ?? '', /#1 in queue/);
  // answered elsewhere, the question leaves "needs you" without a reload
  const d = (await s.get(`/api/runs/${ids['question']}/detail`)).body;
  const r = await s.post(`/api/runs/${ids['question']}/answers`, { question: d.question.id, answer: ['left'] });
  t.is(r.status, 200, JSON.stringify(r.body));
  await app.page.waitForFunction((id) => !document.querySelector(`[data-group="needs"] [data-run="${id}"]`), ids['question']);
  app.noErrors(t);
});

test.serial('archived runs leave the board and come back on request', async (t) => {
  const { s, ids } = t.context;
  const app = await openApp(t, { viewport: DESKTOP, server: s });
  await app.goto('/');
  const done = app.page.locator(`[data-run="${ids['done']}"]`);
  await done.waitFor();
  t.is((await s.post(`/api/runs/${ids['done']}/archive`, { state: 'Archived' })).status, 200);
  await done.waitFor({ state: 'detached' });
  await app.page.getByRole('checkbox', { name: 'Show archived' }).check();
  await app.page.waitForURL((u) => u.search === '?archived=1');
  await done.waitFor();
  t.is(await done.locator('.chip').textContent(), 'Archived');
  t.is((await s.post(`/api/runs/${ids['done']}/archive`, { state: 'Active' })).status, 200);
  await app.page.waitForFunction((id) => !document.querySelector(`[data-run="${id}"] .chip`), ids['done']);
  app.noErrors(t);
});

test.serial('a group of many runs renders a page at a time', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  for (let i = 0; i < 130; i++) await startRun(s, { title: `Bulk ${i}`, goal: 'later', workflow: 'linear', start: false });
  const app = await openApp(t, { viewport: PHONE, server: s });
  await app.goto('/');
  const rows = app.page.locator('[data-group="queued"] .board-row');
  await rows.first().waitFor();
  t.is(await rows.count(), 50);
  t.is(await app.page.locator('[data-group="queued"] h2').textContent(), 'Queued (130)');
  await app.page.getByRole('button', { name: 'Show 50 more of 80 in Queued' }).click();
  await rows.nth(99).waitFor();
  t.is(await rows.count(), 100);
  await app.page.getByRole('button', { name: 'Show 30 more of 30 in Queued' }).click();
  await rows.nth(129).waitFor();
  t.is(await app.page.getByRole('button', { name: /more/ }).count(), 0);
  await app.axe(t);
  app.noErrors(t);
});
