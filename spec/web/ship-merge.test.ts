// Issue 32, shipping: Merge locally needed a separate Secure work (the agent leaves its work
// uncommitted), while Create pull request commits by itself; Secure work on a project with no
// origin committed and then showed a red error; a merged and archived run still offered a pull
// request, the merge, an update and Restart, with nothing marking it merged. Real Chromium, real
// runs on the scripted agent, a project without origin. Screenshots: /tmp/ship-merge-*.png.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

for (const viewport of VIEWPORTS) {
  test.serial(`Merge locally in one step; a merged run is marked and offers nothing more to ship (${viewport.name})`, async (t) => {
    t.timeout(180_000);
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const runId = await startRun(server, { goal: 'Add the feature file [write:feature.txt=done]', title: 'Add the feature', workflow: 'linear' });
    await untilStanding(server, runId, 'Succeeded');

    await app.goto(`/runs/${runId}?tab=pr`);
    const form = page.getByRole('form', { name: 'Merge locally' });
    await form.getByRole('button', { name: 'Merge locally' }).click();
    const merged = page.locator('.ship[data-merged]');
    await merged.waitFor({ timeout: 30_000 });
    t.regex(await merged.innerText(), new RegExp(`merged[\\s\\S]*into main at ${git(server.repo, 'rev-parse', 'main').slice(0, 10)} \\(squash\\)`));
    t.is((await merged.innerText()).match(/into main at/g)?.length, 1, 'the merge is said once, not again by the status line');
    t.true(existsSync(join(server.repo, 'feature.txt')), 'the uncommitted work was merged');
    await page.locator('.run-facts .badge[data-merged]').waitFor();
    const offered = async () => ({
      pr: await page.getByRole('form', { name: 'Create pull request' }).count(),
      merge: await page.getByRole('button', { name: 'Merge locally' }).count(),
      update: await page.getByRole('button', { name: 'Update from base' }).count(),
      secure: await page.getByRole('button', { name: 'Secure work' }).count(),
      restart: await restartOffered(),
    });
    // Restart is in the run's More menu: open it to see what it offers
    async function restartOffered(): Promise<number> {
      const more = page.getByRole('region', { name: 'Run actions' }).getByRole('button', { name: 'More' });
      if (await more.getAttribute('aria-expanded') !== 'true') await more.click();
      const menu = page.getByRole('menu', { name: 'More' });
      await menu.waitFor();
      const n = await menu.getByRole('menuitem', { name: 'Restart' }).count() + await page.getByRole('button', { name: 'Restart' }).count();
      await page.keyboard.press('Escape');
      return n;
    }
    t.deepEqual(await offered(), { pr: 0, merge: 0, update: 0, secure: 0, restart: 0 });
    await app.axe(t, 'merged');
    await merged.getByRole('button', { name: 'Archive the run' }).click();
    await page.locator('.run-facts .badge', { hasText: 'archived' }).waitFor();
    await page.reload();
    await page.locator('.ship[data-merged]').waitFor();
    t.deepEqual(await offered(), { pr: 0, merge: 0, update: 0, secure: 0, restart: 0 });
    t.is(await page.locator('.run-facts .badge[data-merged]').innerText(), 'merged');
    await shot(page, `/tmp/ship-merge-merged-${viewport.width}.png`, { fullPage: true });
    await app.axe(t, 'merged and archived');
    app.noErrors(t);
  });

  test.serial(`Secure work with no origin commits and says so, with no error (${viewport.name})`, async (t) => {
    t.timeout(180_000);
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const runId = await startRun(server, { goal: 'Write notes [write:notes.txt=kept]', title: 'Notes', workflow: 'linear' });
    await untilStanding(server, runId, 'Succeeded');
    await app.goto(`/runs/${runId}`);
    await page.getByRole('button', { name: 'Secure work' }).click();
    const note = page.locator('.run-actions .note');
    await note.waitFor({ timeout: 30_000 });
    t.is(await note.getAttribute('role'), 'status', await note.innerText());
    t.regex(await note.innerText(), new RegExp(`committed [0-9a-f]{10} on svc/${runId}.*no origin`));
    t.is(await page.locator('.run-actions [role="alert"]').count(), 0);
    await shot(page, `/tmp/ship-merge-secured-${viewport.width}.png`);
    await app.axe(t, 'secured without origin');
    app.noErrors(t);
  });
}
