import test from 'ava';
import type { Dialog, Page } from 'playwright-core';
import { closeBrowser, DESKTOP, openApp, PHONE, VIEWPORTS } from './browser.js';
import { setCodeText } from './code-text.js';
import { shot } from '../helpers/shots.js';

// The workflow editor as an author meets it in real Chromium against a real server: a code editor
// fetched only when editing starts, with line numbers, the server's diagnostics marked at their
// line as the text is typed (a misspelt `lable` on line 4 and on an edge on line 7), and a question
// before unsaved edits are lost (a link, Back, Cancel, closing the tab).

test.after.always(closeBrowser);

const MISSPELT = `digraph mine {
  description="Misspelt attributes"
  start [kind=start]
  work [kind=agent, lable="Work", prompt="{{goal}}"]
  done [kind=exit]
  start -> work
  work -> done [lable="finish"]
}`;

const lineOf = (page: Page, n: number) => page.locator('.cm-content .cm-line').nth(n - 1);

/** the next dialog, answered; resolves with its type and text */
const answerNext = (page: Page, accept: boolean): Promise<{ type: string; message: string }> =>
  new Promise((resolve) => page.once('dialog', (d: Dialog) => {
    const seen = { type: d.type(), message: d.message() };
    void (accept ? d.accept() : d.dismiss()).then(() => resolve(seen));
  }));

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`line numbers, a misspelt attribute marked at its line as you type, axe clean (${viewport.name}, ${colorScheme})`, async (t) => {
      const app = await openApp(t, { viewport, colorScheme });
      const { page } = app;
      const fetched: string[] = [];
      page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
      await app.goto('/workflows');
      await page.getByRole('list', { name: 'Shipped' }).waitFor();
      t.false(fetched.some((p) => p.includes('code-editor')), 'the editor is not fetched to read workflows');
      await page.getByRole('button', { name: 'Write a new workflow' }).click();
      const editor = page.getByRole('form', { name: 'New workflow' });
      await editor.getByLabel('Workflow text').waitFor();
      t.true(fetched.some((p) => /\/chunks\/code-editor-.*\.js$/.test(p)), 'fetched when editing starts');
      await editor.getByLabel('Name').fill('mine');
      await setCodeText(editor.getByLabel('Workflow text'), MISSPELT);
      await editor.locator('#wf-check').filter({ hasText: 'Loads: 0 errors, 2 warnings.' }).waitFor();

      t.deepEqual(await editor.locator('.cm-lineNumbers .cm-gutterElement:not([style*="visibility: hidden"])').allTextContents(), ['1', '2', '3', '4', '5', '6', '7', '8']);
      // marked in the text at the attribute, on its own line (the edge's on line 7, not on its node's line)
      await lineOf(page, 4).locator('.cm-lintRange-warning', { hasText: 'lable' }).waitFor();
      await lineOf(page, 7).locator('.cm-lintRange-warning', { hasText: 'lable' }).waitFor();
      t.is(await page.locator('.cm-content .cm-lintRange').count(), 2);
      // and in the gutter, level with line 4
      const marker = await editor.locator('.cm-gutter-lint .cm-lint-marker-warning').first().boundingBox();
      const line4 = await lineOf(page, 4).boundingBox();
      t.true(marker !== null && line4 !== null && Math.abs(marker.y + marker.height / 2 - (line4.y + line4.height / 2)) < line4.height, 'the gutter marker sits on line 4');
      const list = editor.getByRole('list', { name: 'Problems in the text' });
      t.deepEqual(await list.locator('li').allTextContents(), [
        'Warning at line 4 (node work, attribute lable): unknown attribute lable is ignored',
        'Warning at line 7 (node work, attribute lable): route work -> done: unknown edge attribute lable is ignored',
      ]);
      await app.axe(t, `editor, ${colorScheme}`);
      await shot(page, `/tmp/shell-editor-${viewport === PHONE ? 'phone' : 'desktop'}-${colorScheme}.png`, { fullPage: true });
      app.noErrors(t);
    });
  }
}

test('unsaved edits: a link, Back and Cancel ask first; staying keeps the text; saving does not ask; closing the tab asks', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP });
  const { page } = app;
  const openLinear = async () => {
    await page.getByRole('list', { name: 'Home' }).getByRole('link', { name: 'linear' }).click();
    await page.getByRole('button', { name: 'Customize' }).click();
  };
  await app.goto('/workflows');
  await openLinear();
  const editor = page.getByRole('form', { name: 'Edit linear' });
  const text = editor.getByLabel('Workflow text');
  await text.waitFor();
  // no edits yet: leaving asks nothing (an unexpected dialog would be dismissed, and the move refused)
  await page.getByRole('link', { name: 'All workflows' }).click();
  await page.waitForURL((u) => u.pathname === '/workflows');
  await openLinear();
  await text.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// my edit');

  const asked = answerNext(page, false);
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  t.deepEqual(await asked, { type: 'confirm', message: 'Leave this page? Your unsaved edits will be lost.' });
  t.is(new URL(page.url()).pathname, '/workflows/linear', 'staying keeps the page');
  t.regex(await text.textContent() ?? '', /\/\/ my edit$/);

  const back = answerNext(page, false);
  await page.evaluate(() => history.back()); // Playwright's goBack waits for a load that a refused Back never makes
  t.is((await back).type, 'confirm');
  await page.waitForURL((u) => u.pathname === '/workflows/linear');
  t.regex(await text.textContent() ?? '', /\/\/ my edit$/, 'Back refused: still editing');

  const cancel = answerNext(page, false);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  t.is((await cancel).type, 'confirm');
  t.is(await editor.count(), 1, 'Cancel refused: still editing');

  const closing = answerNext(page, false);
  await page.close({ runBeforeUnload: true });
  t.is((await closing).type, 'beforeunload');
  t.false(page.isClosed(), 'the tab stays when the person stays');

  await editor.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: /^Saved\./ }).waitFor();
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/projects');

  await page.goBack();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('form', { name: 'Edit linear' }).getByLabel('Workflow text').click();
  await page.keyboard.type('x');
  const leave = answerNext(page, true);
  await page.getByRole('link', { name: 'Runs', exact: true }).click();
  t.is((await leave).type, 'confirm');
  await page.waitForURL((u) => u.pathname === '/');
  app.noErrors(t);
});
