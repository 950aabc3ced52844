import test from 'ava';
import { startRun } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, PHONE } from './browser.js';
import { shot } from '../helpers/shots.js';

// Keyboard shortcuts as a person presses them in real Chromium: n (new run), / (the board's
// search), j/k and Enter (a visible selection over the board, opening a run), ? (the list, a
// modal dialog that Escape closes). None of them fires while typing in a field.

test.after.always(closeBrowser);

const focused = (page: import('playwright-core').Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  return { tag: el?.tagName ?? '', text: el?.textContent ?? '', type: el?.getAttribute('type') ?? '', row: el?.closest('.board-row')?.getAttribute('data-run') ?? '' };
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`j/k move a visible selection over the board and Enter opens the run (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page } = app;
    for (const title of ['First run', 'Second run', 'Third run']) await startRun(app.server, { goal: 'g', title, workflow: 'linear', start: false });
    await app.goto('/');
    await page.locator('.board-row').nth(2).waitFor();
    const order = await page.locator('.board-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run') ?? ''));

    await page.keyboard.press('j');
    t.is((await focused(page)).row, order[0]);
    t.is(await page.locator('.board-row[data-selected="yes"]').getAttribute('data-run'), order[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    t.is((await focused(page)).row, order[2], 'stops at the last row');
    await page.keyboard.press('k');
    t.is((await focused(page)).row, order[1]);
    t.is(await page.locator('.board-row[data-selected="yes"]').count(), 1);
    // visibly marked: the selected row's background differs from the others'
    const bg = (i: number) => page.locator('.board-row').nth(i).evaluate((el) => getComputedStyle(el).backgroundColor);
    t.not(await bg(1), await bg(0));
    await app.axe(t, 'board with a selection');

    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === `/runs/${order[1]}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    app.noErrors(t);
  });
}

test('/ searches the board from any page, n starts a new run, ? lists the keys; none fires while typing', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP });
  const { page } = app;
  await startRun(app.server, { goal: 'g', title: 'Only run', workflow: 'linear', start: false });
  await app.goto('/projects');
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

  await page.keyboard.press('/');
  await page.waitForURL((u) => u.pathname === '/');
  await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'search');
  // typing in the search field is typing: j, n, ? and / go into the field
  await page.keyboard.type('jn?/');
  t.is(await page.getByRole('searchbox').inputValue(), 'jn?/');
  t.is(new URL(page.url()).pathname, '/');
  t.is(await page.getByRole('dialog').count(), 0);
  await page.getByRole('searchbox').fill('');

  await page.locator('main').focus();
  await page.keyboard.press('n');
  await page.waitForURL((u) => u.pathname === '/new');
  await page.getByRole('heading', { level: 1, name: 'New run' }).waitFor();

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  t.deepEqual(await dialog.locator('dt').allTextContents(), ['n', '/', 'j / k', 'Enter', '] / [', 'n / p', '?']);
  t.regex(await dialog.textContent() ?? '', /New run.*Search the runs board.*Next \/ previous run on the board.*Open the selected run/);
  await app.axe(t, 'shortcuts dialog');
  await shot(page, '/tmp/shell-shortcuts-desktop-light.png');
  // a key inside the dialog is not a shortcut
  await page.keyboard.press('n');
  t.is(new URL(page.url()).pathname, '/new');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  await page.getByLabel('Goal').click();
  await page.keyboard.type('n/?');
  t.is(await page.getByLabel('Goal').inputValue(), 'n/?');
  t.is(new URL(page.url()).pathname, '/new');
  t.is(await page.getByRole('dialog').count(), 0);
  app.noErrors(t);
});
