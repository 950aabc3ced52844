import test from 'ava';
import { startRun } from '../helpers/steer.js';
import { closeBrowser, VIEWPORTS, openApp } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 32: Back after a filter change on the board left the board (each change replaced the
// address), though docs/app.md says Back undoes the change. Each change is a Back step; the
// keystrokes of one search are one step.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`Back undoes a filter change and stays on the board (${viewport.name})`, async (t) => {
    t.timeout(90_000);
    const app = await openApp(t, { viewport });
    const { page } = app;
    await app.goto('/usage');
    await app.goto('/');
    const standing = page.getByLabel('Standing');
    await standing.waitFor();
    await standing.selectOption('Failed');
    await page.waitForURL((u) => u.search === '?standing=Failed');
    await page.getByRole('checkbox', { name: 'Show archived' }).check();
    await page.waitForURL((u) => u.searchParams.get('archived') !== null);
    await page.getByRole('searchbox').pressSequentially('tidy');
    await page.waitForURL((u) => u.searchParams.get('q') === 'tidy');
    await shot(page, `/tmp/board-back-${viewport.width}.png`);
    await app.axe(t, 'a filtered board');

    // the whole search is one step
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get('q') === null);
    t.is(new URL(page.url()).pathname, '/');
    t.is(await page.getByRole('searchbox').inputValue(), '');
    t.true(await page.getByRole('checkbox', { name: 'Show archived' }).isChecked());
    await page.goBack();
    await page.waitForURL((u) => u.search === '?standing=Failed');
    t.false(await page.getByRole('checkbox', { name: 'Show archived' }).isChecked());
    t.is(await standing.inputValue(), 'Failed');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/' && u.search === '');
    t.is(await standing.inputValue(), '');
    // and then Back leaves the board for where the person was before
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/usage');
    app.noErrors(t);
  });
}

// A group left empty by the filters says so, not that nothing has happened yet.
test('an empty group under filters says the filters hide its runs', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page } = app;
  await startRun(app.server, { title: 'Not started', goal: 'x', workflow: 'linear', start: false });
  await app.goto('/?standing=Failed');
  const done = page.locator('section[data-group="done"]');
  await done.getByText('None here with these filters.').waitFor();
  t.is(await done.getByText('Nothing has finished yet.').count(), 0);
  await app.goto('/');
  await done.getByText('Nothing has finished yet.').waitFor();
  app.noErrors(t);
});
