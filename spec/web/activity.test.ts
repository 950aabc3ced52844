// The Thread's activity cards in real Chromium against the real server, with a run on the real
// claude CLI against the scripted model: a step heading (CLI, how it ended), cards with paths
// relative to the worktree, a running card that turns done live, the failed command marked in
// words, the whole output a click away, an edit card's link into the diff, "Jump to latest" when
// the person has scrolled up, the header kept in view. axe at both sizes; screenshots to /tmp.
import test from 'ava';
import { ACTIVE, FLAG_AGAIN, startActivityRun, useRealClaude, WAITING, WAITING_AGAIN } from '../helpers/activity-run.js';
import { untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

// one at a time: the CLI finds the scripted model through this process's environment
for (const viewport of VIEWPORTS) {
  test.serial(`a tool-using claude turn reads as cards under its step (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    useRealClaude();
    const app = await openApp(t, { viewport, workflows: { active: ACTIVE } });
    const run = await startActivityRun(app.server, 'Tool-using run');
    t.teardown(() => run.model.close());
    const { page } = app;
    await app.goto(`/runs/${run.runId}`);
    const thread = page.getByRole('list', { name: 'Thread' });
    const card = (title: string) => thread.locator('li.card', { has: page.locator('summary .title', { hasText: title }) });

    // the waiting command shows as running, live
    await card(WAITING).and(page.locator('[data-status="running"]')).waitFor({ timeout: 120_000 });
    t.regex(await card(WAITING).locator('summary').innerText(), /running/);
    await card('seq 1 3000').locator('summary').click();
    t.true(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 100), 'the page is longer than the window');
    await shot(page, `/tmp/activity-running-${viewport.width}.png`, { fullPage: true });
    const atEnd = () => page.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48);

    // the person is at the end: new rows scroll into view
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    run.release();
    await card(WAITING_AGAIN).and(page.locator('[data-status="running"]')).waitFor({ timeout: 60_000 });
    t.true(await atEnd(), 'the page followed the newest row');
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    t.is(await jump.count(), 0);

    // the person is reading the top: new rows do not move the page; a button offers the way down
    await page.evaluate(() => window.scrollTo(0, 0));
    run.release(FLAG_AGAIN);
    await card(WAITING_AGAIN).and(page.locator('[data-status="ok"]')).waitFor({ timeout: 60_000 });
    await jump.waitFor();
    t.is(await page.evaluate(() => window.scrollY), 0, 'the page stayed where the person was');
    await untilStanding(app.server, run.runId, 'Succeeded', 120_000);
    await page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor();
    await jump.click();
    await page.waitForFunction(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48);
    t.true(await atEnd());
    t.is(await jump.count(), 0, 'at the end, the button goes');
    await shot(page, `/tmp/activity-end-${viewport.width}.png`);
    // the run's header stays in view on a long thread
    const heading = await page.getByRole('heading', { level: 1, name: 'Tool-using run' }).boundingBox();
    t.true(heading !== null && heading.y >= 0 && heading.y < 80, `the heading is still in view (${heading?.y})`);
    // on a wide screen the controls stay too (a phone has no room: only the heading stays)
    const controls = await page.getByRole('button', { name: 'More' }).boundingBox();
    if (viewport.width > 640) t.true(controls !== null && controls.y >= 0 && controls.y < 200, `the controls are in view (${controls?.y})`);
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page fits the window');

    const rows = await thread.locator('li.card').evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.querySelector('.title')?.textContent, e.getAttribute('data-status')]));
    t.deepEqual(rows, [
      ['read', 'README.md', 'ok'],
      ['write', 'notes/todo.md', 'ok'],
      ['command', 'seq 1 3000', 'ok'],
      ['command', WAITING, 'ok'],
      ['command', 'ls does-not-exist', 'error'],
      ['command', WAITING_AGAIN, 'ok'],
      ['mcp', 'how the step went', 'ok'],
    ]);
    const step = thread.locator('li.step-group').first();
    t.regex(await step.getByRole('heading', { level: 3 }).innerText(), /Step work[\s\S]*claude[\s\S]*succeeded/);
    const failed = card('ls does-not-exist');
    t.regex(await failed.locator('summary').innerText(), /failed \(exit 2\)/, 'a failed command says so in words');
    t.true(await failed.locator('details').evaluate((d) => (d as HTMLDetailsElement).open), 'a failed card opens by itself');
    t.regex(await failed.locator('pre.output').innerText(), /does-not-exist/);
    t.false((await thread.innerText()).includes(run.dir), 'no absolute worktree path in the thread');
    await app.axe(t, 'the thread with activity cards');
    await shot(page, `/tmp/activity-${viewport.width}.png`, { fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.axe(t, 'the thread with activity cards, dark');
    await shot(page, `/tmp/activity-dark-${viewport.width}.png`, { fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // the whole output, a click away
    const seq = card('seq 1 3000');
    t.false((await seq.locator('pre.output').innerText()).includes('\n3000'), 'the card first shows a preview');
    await seq.getByRole('button', { name: /Show all [\d,]+ characters/ }).click();
    await seq.locator('pre.output', { hasText: /\n3000$/ }).waitFor();

    // an edit card leads to its file in the diff
    await card('notes/todo.md').locator('summary').click();
    await card('notes/todo.md').getByRole('link', { name: 'Show notes/todo.md in the diff' }).click();
    await page.getByRole('tab', { name: 'Worktree', selected: true }).waitFor();
    t.regex(page.url(), /tab=worktree&file=notes%2Ftodo\.md/);
    await page.locator('.d2h-file-wrapper.revealed', { hasText: 'notes/todo.md' }).waitFor();
    t.true(await page.locator('.d2h-file-wrapper.revealed .d2h-file-diff').evaluate((e) => e === document.activeElement), 'the file\'s diff has the focus');
    // issue 32: and it is in view, not left below the fold, once what is drawn around it settles
    await page.waitForTimeout(1000);
    const shown = (await page.locator('.d2h-file-wrapper.revealed').boundingBox())!;
    const scrolledToEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
    // at the top of the window, or (the last file of a short page) the page scrolled as far as it goes with the file in view
    t.true(shown.y >= 0 && (shown.y < 200 || (scrolledToEnd && shown.y + Math.min(shown.height, 150) <= viewport.height)), `the file is in view (${shown.y}, at the end: ${scrolledToEnd})`);

    // History names events in words
    await page.getByRole('tab', { name: 'History', exact: true }).click();
    await page.getByRole('list', { name: 'History' }).getByText(/^Step \S+ started/).first().waitFor();
    app.noErrors(t);
  });
}
