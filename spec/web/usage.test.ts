import test from 'ava';
import { readFileSync } from 'node:fs';
import { isLeft } from 'fp-ts/lib/Either.js';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../helpers/env.js';
import { untilEnded, untilEvents } from '../helpers/http-kit.js';
import type { TestServer } from '../helpers/server.js';
import { recordUsage, tokens } from '../helpers/usage.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// The Usage page in real Chromium against the real server: runs' usage appended to their
// journals, drawn by uPlot as cost per day stacked by harness, then by project; the chart's table,
// the top runs, tokens; a new turn shows without a reload; an empty range says so; the phone in
// the dark theme. A board card shows its run's cost, a step heading its step's cost and
// tokens, and the run's header the run's cost. axe at both sizes; screenshots in /tmp/shots.

test.after.always(closeBrowser);

const today = () => new Date().toISOString();
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString();
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const newRun = async (s: TestServer, project: string, title: string): Promise<string> => {
  const r = await s.post('/api/runs', { project, goal: title, title, workflow: 'linear', start: false });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.runId;
};

const seed = async (s: TestServer): Promise<{ a: string; b: string; c: string }> => {
  const other = await s.service.addProject('other', [{ path: gitRepo() }]);
  if (isLeft(other)) throw new Error('no second project');
  const a = await newRun(s, s.projectId, 'Costly refactor');
  const b = await newRun(s, s.projectId, 'Small fix');
  const c = await newRun(s, other.right.id, 'Other project work');
  recordUsage(s, a, { at: yesterday(), harness: 'claude', model: 'sonnet', tokens: tokens(12_000, 300, 1_100), cost: { _tag: 'Reported', usd: 2.5 } });
  recordUsage(s, a, { at: today(), harness: 'codex', model: 'gpt-5', tokens: tokens(5_000, 0, 400), cost: { _tag: 'Priced', usd: 1.25 } });
  recordUsage(s, b, { at: today(), harness: 'claude', model: 'sonnet', tokens: tokens(800, 0, 90), cost: { _tag: 'Reported', usd: 0.4 } });
  // under a cent: reads "<$0.01" in the day's table as everywhere else, not "$0.00"
  recordUsage(s, b, { at: daysAgo(3), harness: 'codex', model: 'gpt-5', tokens: tokens(3, 0, 1), cost: { _tag: 'Priced', usd: 0.004 } });
  recordUsage(s, c, { at: today(), harness: 'opencode', tokens: null, cost: { _tag: 'Unknown', why: 'no price for the model' } });
  recordUsage(s, c, { at: today(), harness: 'opencode', model: 'm', tokens: tokens(100, 0, 10), cost: { _tag: 'Priced', usd: 0.75 } });
  return { a, b, c };
};

/** the legend's series labels, in the order uPlot lists them (the x series first, unlabelled) */
const legend = (app: AppSession) => app.page.locator('.usage-chart .u-legend .u-series .u-label').allInnerTexts();

// The chart is made anew after its data arrives (a new grouping is a new fetch): wait until its
// legend names `series` series (the time axis besides) and its canvas is drawn on, then read it.
const drawn = async (app: AppSession, series: number): Promise<string[]> => {
  await app.page.waitForFunction((n) => {
    const c = document.querySelector<HTMLCanvasElement>('.usage-chart canvas');
    const px = c?.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 3; px && i < px.length; i += 4) if (px[i]! > 0) ink++;
    return document.querySelectorAll('.usage-chart .u-legend .u-series').length === n + 1 && ink > 500;
  }, series);
  return legend(app);
};

/** how many pixels of the chart's canvas something was drawn on */
const inked = (app: AppSession) => app.page.locator('.usage-chart canvas').evaluate((c: HTMLCanvasElement) => {
  const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) n++;
  return n;
});

for (const viewport of VIEWPORTS) {
  const size = viewport.name.split(' ')[0];
  test(`the Usage page: cost per day stacked by harness or project, top runs, tokens, live (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    // the phone in the dark theme: the chart's axes and legend take the page's colours
    const app = await openApp(t, { viewport, colorScheme: viewport.width < 600 ? 'dark' : 'light' });
    const { page, server } = app;
    const { a, b } = await seed(server);
    await app.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    const summary = page.locator('.usage-summary');
    await summary.waitFor();
    t.regex(await summary.innerText(), /\$4\.90 \+ 1 turn unknown/);
    t.regex(await summary.innerText(), /Turns\s+6/);

    const chart = page.getByRole('img', { name: /Cost per day by harness/ });
    await chart.locator('canvas').waitFor();
    t.deepEqual((await drawn(app, 3)).slice(1).sort(), ['claude', 'codex', 'opencode']);
    t.true(await inked(app) > 500, 'the bars are drawn');
    t.regex((await chart.getAttribute('aria-label'))!, /claude \$2\.90, codex \$1\.25, opencode \$0\.75/);
    // with no day under the pointer the legend gives each harness's cost over the range, not blanks,
    // and a turn of unknown cost is said to be unknown
    const values = await page.locator('.usage-chart .u-legend .u-series .u-value').allInnerTexts();
    const labels = await legend(app);
    t.deepEqual(Object.fromEntries(labels.map((l, i) => [l, values[i]])), { Day: 'all days', claude: '$2.90', codex: '$1.25', opencode: '$0.75 + 1 turn unknown' });

    await page.getByText('Cost per day by harness, as a table').click();
    const table = page.getByRole('table', { name: 'Cost per day by harness' });
    await table.waitFor();
    t.is(await table.getByRole('row').count(), 31, 'a header row and one row a day');
    t.is(await table.getByRole('row').filter({ hasText: '<$0.01' }).count(), 1, 'the day of a fraction of a cent');

    const top = page.locator('.usage-runs li');
    t.deepEqual(await top.locator('a').allInnerTexts(), ['Costly refactor', 'Other project work', 'Small fix']);
    t.is(await top.first().locator('a').getAttribute('href'), `/runs/${a}`);
    t.regex(await top.nth(1).innerText(), /\$0\.75 \+ 1 turn unknown/);
    const tokensTable = page.getByRole('table', { name: 'Tokens by harness' });
    t.regex(await tokensTable.getByRole('row', { name: /claude/ }).innerText(), /\$2\.90\s+2\s+12\.8k\s+300\s+1\.2k/);
    // the cost column is in sight without scrolling the table sideways, on the phone too
    const costHead = (await tokensTable.getByRole('columnheader', { name: 'Cost' }).boundingBox())!;
    t.true(costHead.x + costHead.width <= viewport.width, `Cost ends at ${costHead.x + costHead.width}`);
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll of the page');
    await app.axe(t, 'by harness');
    await shot(page, `/tmp/shots/usage-${size}.png`, { fullPage: true });

    // the CSV is fetched with the page's credentials and handed over as a file
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    // saved where the test says: under npm test the browser is the run's shared one, whose files path() cannot reach
    const saved = join(tempDir('svc-csv-'), 'usage.csv');
    await download.saveAs(saved);
    const csv = readFileSync(saved, 'utf8');
    t.regex(csv, /^key,label,costUsd,unknownTurns,turns,inputTokens,cachedInputTokens,outputTokens\r\n/);
    t.is(csv.trim().split('\r\n').length, 4, 'a header and the three days with usage');

    await page.getByRole('radio', { name: 'Project' }).check();
    await page.getByRole('img', { name: /Cost per day by project/ }).locator('canvas').waitFor();
    t.deepEqual((await drawn(app, 2)).slice(1).sort(), ['demo', 'other']);
    t.true(await inked(app) > 500);
    await app.axe(t, 'by project');
    await shot(page, `/tmp/shots/usage-project-${size}.png`, { fullPage: true });

    // a turn recorded now reaches the page over the push stream, without a reload
    recordUsage(server, b, { at: today(), harness: 'claude', model: 'sonnet', tokens: tokens(10, 0, 1), cost: { _tag: 'Reported', usd: 10 } });
    await summary.filter({ hasText: '$14.90 + 1 turn unknown' }).waitFor({ timeout: 15_000 });
    // the top runs are a read of their own, which may land after the summary's
    await top.first().locator('a', { hasText: 'Small fix' }).waitFor({ timeout: 15_000 });
    app.noErrors(t);
  });
}

test('the Usage page with nothing recorded says so (phone)', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[1]! });
  await app.goto('/usage');
  await app.page.getByText('No usage recorded in these days.').waitFor();
  t.is(await app.page.locator('.usage-chart').count(), 0);
  // a budget is set before anything is spent: the section shows with no usage too
  t.is(await app.page.locator(`.usage-budgets [data-project="${app.server.projectId}"] [data-today]`).innerText(), '$0.00 today; no daily budget');
  await app.axe(t, 'empty');
  app.noErrors(t);
});

for (const viewport of VIEWPORTS) {
  test(`daily budgets on the Usage page: today's spend beside the budget, set, reached, removed (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, colorScheme: viewport.width < 600 ? 'dark' : 'light' });
    const { page, server } = app;
    const runId = await newRun(server, server.projectId, 'Spent today');
    recordUsage(server, runId, { at: today(), harness: 'claude', tokens: tokens(10, 0, 1), cost: { _tag: 'Reported', usd: 2.5 } });
    await app.goto('/usage');
    const item = page.locator(`.usage-budgets [data-project="${server.projectId}"]`);
    const said = item.locator('[data-today]');
    await said.filter({ hasText: '$2.50 today; no daily budget' }).waitFor();
    const form = page.getByRole('form', { name: 'Daily budget of demo' });
    await form.getByLabel('demo').fill('2');
    await form.getByRole('button', { name: 'Save' }).click();
    await said.filter({ hasText: '$2.50 of $2.00 today: reached, new runs wait in the queue until tomorrow or a raise' }).waitFor();
    t.is((await server.get(`/api/projects/${server.projectId}`)).body.dailyBudgetUsd, 2);
    await page.waitForFunction(() => document.activeElement?.textContent === 'Save', undefined, { timeout: 10_000 });
    // every control within the screen, and no sideways scroll
    const boxes = await item.locator('input, button, label').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
    t.true(boxes.every((r) => r <= viewport.width), JSON.stringify(boxes));
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll of the page');
    await app.axe(t, 'daily budgets');
    await shot(page, `/tmp/shots/usage-budgets-${viewport.width}.png`, { fullPage: true });
    await form.getByRole('button', { name: 'Remove' }).click();
    await said.filter({ hasText: '$2.50 today; no daily budget' }).waitFor();
    t.is((await server.get(`/api/projects/${server.projectId}`)).body.dailyBudgetUsd, undefined);
    app.noErrors(t);
  });
}

test('a run whose CLI reported a cost and no tokens: the top runs give its cost alone (phone)', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[1]! });
  const runId = await newRun(app.server, app.server.projectId, 'Cost only');
  recordUsage(app.server, runId, { at: today(), harness: 'claude', tokens: null, cost: { _tag: 'Reported', usd: 1 } });
  await app.goto('/usage');
  const row = app.page.locator('.usage-runs li');
  await row.waitFor();
  t.is((await row.innerText()).trim(), 'Cost only · $1.00 · 1 turn');
  app.noErrors(t);
});

test("a run's board card shows its cost, and follows a new turn live (phone)", async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[1]! });
  const { page, server } = app;
  const runId = await newRun(server, server.projectId, 'Card with a cost');
  recordUsage(server, runId, { at: today(), harness: 'claude', tokens: tokens(1, 0, 1), cost: { _tag: 'Reported', usd: 0.42 } });
  await app.goto('/');
  const cost = page.locator(`.board-row[data-run="${runId}"] .board-cost`);
  t.is(await cost.innerText(), '$0.42');
  recordUsage(server, runId, { at: today(), harness: 'codex', tokens: null, cost: { _tag: 'Unknown', why: 'no price' } });
  await cost.filter({ hasText: '$0.42 + 1 turn unknown' }).waitFor();
  await app.axe(t, 'board with costs');
  app.noErrors(t);
});

test("a run's step heading shows the step's cost and tokens, its header the run's (desktop)", async (t) => {
  t.timeout(120_000);
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  const r = await server.post('/api/runs', { project: server.projectId, goal: 'one step', title: 'Priced run', workflow: 'linear' });
  const runId = r.body.runId as string;
  const [started] = await untilEvents(server, runId, 'StepStarted');
  await untilEnded(server, runId);
  recordUsage(server, runId, { at: today(), stepId: started.data.stepId, harness: 'claude', model: 'sonnet', tokens: tokens(12_000, 300, 1_100), cost: { _tag: 'Reported', usd: 0.42 } });
  await app.goto(`/runs/${runId}`);
  const head = page.locator('.step-group[data-step="work"] .step-head');
  await head.locator('.step-cost').waitFor();
  // the step's own turn (the stand-in CLI's) may have recorded a few tokens and cents of its own
  t.regex(await head.locator('.step-cost').innerText(), /^\$0\.4\d · 12\.3k in \/ 1\.1k out$/);
  // the run's header gives the run's cost as its board card does
  await page.locator('.run-facts .run-cost', { hasText: /^cost \$0\.4\d$/ }).waitFor();
  // a turn of unknown cost on the same step: said so, live, never folded into a known-looking sum
  recordUsage(server, runId, { at: today(), stepId: started.data.stepId, harness: 'claude', tokens: null, cost: { _tag: 'Unknown', why: 'no price' } });
  // and why it is unknown, on screen (issue 32: "nothing on screen says why")
  await head.locator('.step-cost', { hasText: /^\$0\.4\d \+ 1 turn unknown: no price · 12\.3k in \/ 1\.1k out$/ }).waitFor();
  await page.locator('.run-facts .run-cost', { hasText: /^cost \$0\.4\d \+ 1 turn unknown$/ }).waitFor();
  await shot(page, '/tmp/shots/usage-step-head.png');
  app.noErrors(t);
});

test("a run whose every turn's cost is unknown says so once, and its step says why (desktop)", async (t) => {
  t.timeout(120_000);
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  const runId = await newRun(server, server.projectId, 'Unpriced run');
  const why = "no price for codex gpt-5.5 (its default model) in the price table, and no '*' row for codex";
  recordUsage(server, runId, { at: today(), harness: 'codex', model: 'gpt-5.5', tokens: tokens(3_000, 0, 42), cost: { _tag: 'Unknown', why } });
  await app.goto(`/runs/${runId}`);
  const header = page.locator('.run-facts .run-cost');
  await header.waitFor();
  // it read "cost cost unknown (1 turn)"
  t.is(await header.innerText(), 'cost unknown (1 turn)');
  const detail = (await server.get(`/api/runs/${runId}/detail`)).body;
  t.is(detail.usage.steps[0].unknownWhy, why, 'the run detail carries why');
  await app.axe(t, 'a run of unknown cost');
  app.noErrors(t);
});
