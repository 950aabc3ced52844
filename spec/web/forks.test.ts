import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { TWO_STEPS } from '../mcp/helpers/real.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// Forking from the run page in real Chromium against the real server (scripted harness): "Fork
// from here" on step work's end in History opens a dialog; the fork opens, names its source, runs
// the next step on the restored files; the source's thread offers the same on its step headings;
// the board shows the fork under its source. Screenshots: /tmp/shots/fork-*.png.

test.after.always(closeBrowser);

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/shots/fork-${name}-${w}.png`, { fullPage: true });

for (const viewport of VIEWPORTS) {
  test(`Fork from here in History; the fork links its source; the board shows it under the source (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { two: TWO_STEPS } });
    const source = await startRun(app.server, { goal: '[write:one.txt=from step work][report:success]', title: 'Write the first file', workflow: 'two' });
    await untilStanding(app.server, source, 'Succeeded');
    const workEnd = (await detail(app.server, source)).forkable[0];

    await app.goto(`/runs/${source}?tab=history`);
    const fork = app.page.getByRole('button', { name: `Fork from here: after step work (#${workEnd.at})` });
    await fork.waitFor();
    t.is(await app.page.getByRole('button', { name: /^Fork from here/ }).count(), 1, 'one per step end a fork can go on from: work (review ends the workflow)');
    await fork.click();
    const dialog = app.page.getByRole('dialog', { name: 'Fork from step work' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: /^Note/ }).fill('try the review again');
    await dialog.getByRole('combobox', { name: 'Harness' }).selectOption('claude');
    await app.axe(t, 'the fork dialog');
    await shot(app, 'dialog', viewport.width);
    await dialog.getByRole('button', { name: 'Fork', exact: true }).click();

    await app.page.waitForURL((u) => u.pathname.startsWith('/runs/') && !u.pathname.endsWith(source));
    const forkId = decodeURIComponent(new URL(app.page.url()).pathname.split('/').pop()!);
    // linked by its title, the id in the tooltip (issue 32: "Forked from r1m8…")
    await app.page.getByText(`Forked from Write the first file after step work (#${workEnd.at}): try the review again.`).waitFor();
    t.is(await app.page.locator('.fork-links a').first().getAttribute('title'), `run ${source}`);
    await untilStanding(app.server, forkId, 'Succeeded');
    await app.page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    const dir = worktreeDir(app.server.home, forkId, basename(app.server.repo));
    t.is(readFileSync(join(dir, 'one.txt'), 'utf8'), 'from step work');
    t.deepEqual((await detail(app.server, forkId)).forkedFrom, { run: source, at: workEnd.at, step: 'work', note: 'try the review again' });
    await app.axe(t, 'the fork');
    await shot(app, 'run', viewport.width);

    await app.goto(`/runs/${source}`);
    // each fork says where it went on from, on which agent and how it did
    await app.page.getByText(`Forks: ${(await detail(app.server, forkId)).title} (after work, claude, Succeeded).`).waitFor();
    t.is(await app.page.locator('.fork-links a').first().getAttribute('title'), `run ${forkId}`);
    const heads = app.page.locator('.step-group').getByRole('button', { name: /^Fork from here/ });
    await heads.first().waitFor();
    t.is(await heads.count(), 1, 'the thread\'s step headings offer it too, on the step a fork can go on from');
    await app.axe(t, 'the source with its fork');
    await shot(app, 'source', viewport.width);

    await app.goto('/');
    const sourceCard = app.page.locator(`li.board-row[data-run="${source}"]`);
    await sourceCard.getByText('1 fork', { exact: true }).waitFor();
    t.is(await sourceCard.getByRole('link', { name: /^Fork at work, claude: / }).getAttribute('href'), `/runs/${forkId}`);
    const forkCard = app.page.locator(`li.board-row[data-run="${forkId}"]`);
    await forkCard.getByText('fork of Write the first file at step work').waitFor();
    await app.axe(t, 'the board');
    await shot(app, 'board', viewport.width);
    app.noErrors(t);
  });
}

// A fork's link lives in the fork's own journal, so the source's open page hears of it through its
// push stream (lib/push/run-watch.ts), not its own events: made over HTTP, it shows without a reload.
test('A fork made elsewhere shows on its source\'s open page without a reload', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { two: TWO_STEPS } });
  const source = await startRun(app.server, { goal: '[write:one.txt=from step work][report:success]', title: 'Write the first file', workflow: 'two' });
  await untilStanding(app.server, source, 'Succeeded');
  const { at } = (await detail(app.server, source)).forkable[0];
  await app.goto(`/runs/${source}`);
  await app.page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor();
  t.is(await app.page.getByText(/^Forks:/).count(), 0, 'no fork yet');
  const marker = await app.page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; return true; });

  const made = await app.server.post(`/api/runs/${source}/forks`, { at, note: 'from another tab' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const links = app.page.locator('.fork-links').getByRole('link');
  await links.first().waitFor({ timeout: 15_000 });
  // linked by title, the id in each link's tooltip
  const ids = () => links.evaluateAll((as) => as.map((a) => a.getAttribute('title')));
  t.deepEqual(await ids(), [`run ${made.body.runId}`]);
  t.deepEqual(await links.allTextContents(), ['Write the first file']);
  const again = await app.server.post(`/api/runs/${source}/forks`, { at });
  await links.nth(1).waitFor({ timeout: 15_000 });
  t.deepEqual(await ids(), [`run ${made.body.runId}`, `run ${again.body.runId}`]);
  t.is(await app.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), marker, 'the same page, not a reload');
  app.noErrors(t);
});
