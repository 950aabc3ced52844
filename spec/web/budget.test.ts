import test from 'ava';
import { history, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { TWO } from '../helpers/pr-cycle-limit.js';
import { shot } from '../helpers/shots.js';

// A run budget in the app, in real Chromium against a real server: the New run form takes the
// budget; the run pauses after the step that spent it and the run page says why; Resume with a
// raised budget there takes it to the end. The stand-in harness reports each turn's cost ([cost:USD]).

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test(`a budget given on New run pauses the run; the run page resumes it with a raise (${viewport.name})`, async (t) => {
    t.timeout(90_000);
    const app = await openApp(t, { viewport, workflows: { two: TWO } });
    const { page } = app;
    await app.goto('/new?workflow=two');
    await page.getByLabel('Goal').fill('Spend [cost:2]');
    await page.getByLabel('Budget in US dollars').fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByText('Paused by its budget: spent $2.00 of $1.00 budget. Raise the budget to go on.', { exact: true }).waitFor();
    // plain Resume would only be refused: the raise is the one way on
    t.is(await page.getByRole('region', { name: 'Controls' }).getByRole('button', { name: 'Resume', exact: true }).count(), 0);
    // the stand-in reports a cost and no tokens: the step's heading gives the cost alone, not "0 in / 0 out"
    t.is(await page.locator('.step-group[data-step="one"] .step-cost').innerText(), '$2.00');
    // the header says how much of the budget is spent, as it does while the run goes
    t.is(await page.locator('.run-facts .run-cost').innerText(), 'spent $2.00 of $1.00 budget');
    await app.axe(t, 'paused by its budget');
    await shot(page, `${process.env['SVC_SHOTS']}/budget-paused-${viewport.width}.png`, { fullPage: true });
    await page.getByLabel(/^Budget in US dollars/).fill('10');
    await page.getByRole('button', { name: 'Resume with this budget' }).click();
    const done = await untilStanding(app.server, runId, 'Succeeded');
    t.deepEqual(done.budget, { budgetUsd: 10, text: 'spent $4.00 of $10.00 budget' });
    t.true((await history(app.server, runId)).some((e) => e.type === 'BudgetRaised' && e.data.budgetUsd === 10));
    app.noErrors(t);
  });
}
