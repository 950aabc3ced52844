import test from 'ava';
import { eventually } from '../helpers/env.js';
import { diffRun } from '../helpers/diff-run.js';
import { detail } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 31, reading the diff, in real Chromium: a file tree beside the diff (above it on a phone)
// with +/- and comment counts, a "Viewed" mark per file kept per run in this browser, `]`/`[`
// between files and `n`/`p` between comments; issue 32: "Show file in the diff" leaves the file at
// the top of the window, and code colours on changed lines pass axe's contrast in both themes.

test.after.always(closeBrowser);

const focusedPath = (app: AppSession) => app.page.evaluate(() => (document.activeElement?.closest('.d2h-file-wrapper') as HTMLElement | null)?.dataset['path'] ?? null);
const focusedThread = (app: AppSession) => app.page.evaluate(() => document.activeElement?.closest('.review-thread')?.querySelector('code')?.textContent ?? null);

for (const viewport of VIEWPORTS) {
  test(`a file tree with counts, Viewed kept per run, keys between files and comments (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const app = await openApp(t, { viewport });
    const { page } = app;
    const runId = await diffRun(app.server);
    await app.goto(`/runs/${runId}?tab=worktree`);
    const tree = page.getByRole('navigation', { name: 'Changed files' });
    const entry = (path: string) => tree.locator(`li[data-path="${path}"]`);
    await entry('src/tokens.ts').waitFor();
    t.regex(await entry('src/tokens.ts').innerText(), /\+2\s*added\s*−2\s*removed/);
    t.regex(await entry('zz-long.md').innerText(), /\+120\s*added\s*−0\s*removed/);
    const treeBox = (await tree.boundingBox())!, diffBox = (await page.locator('.diff').first().boundingBox())!;
    if (viewport === DESKTOP) t.true(treeBox.x + treeBox.width <= diffBox.x && treeBox.y < diffBox.y + 200, 'the tree is beside the diff');
    else t.true(treeBox.y + treeBox.height <= diffBox.y, 'on a phone the tree is above the diff');

    // a comment on two files: the tree counts them
    for (const [path, line] of [['notes.txt', 1], ['zz-last.txt', 1]] as const) {
      await page.locator(`.d2h-file-wrapper[data-path="${path}"] .line-num2`).getByText(String(line), { exact: true }).click();
      const box = page.getByRole('form', { name: `Comment on ${path}:${line}` });
      await box.getByRole('textbox').fill(`About ${path}.`);
      await box.getByRole('button', { name: 'Add to review' }).click();
      await box.waitFor({ state: 'detached' });
    }
    t.regex(await entry('notes.txt').innerText(), /1\s*comment/);

    // Viewed, kept per run across a reload
    await page.getByRole('checkbox', { name: 'Viewed src/tokens.ts' }).check();
    await entry('src/tokens.ts').and(page.locator('.viewed')).waitFor();
    await page.reload();
    t.true(await page.getByRole('checkbox', { name: 'Viewed src/tokens.ts' }).isChecked(), 'the mark survives a reload');
    t.is(await entry('src/tokens.ts').getAttribute('class'), 'viewed');
    t.false(await page.getByRole('checkbox', { name: 'Viewed notes.txt' }).isChecked());
    await app.axe(t, 'the file tree');
    await shot(page, `/tmp/w31-shots/after-tree-${viewport.width}.png`);

    // keys: ] and [ between files, n and p between comments
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('h1').click();
    const order = await page.locator('.d2h-file-wrapper').evaluateAll((ws) => ws.map((w) => (w as HTMLElement).dataset['path'] ?? null));
    await page.keyboard.press(']');
    t.is(await focusedPath(app), order[0]);
    await page.keyboard.press(']');
    t.is(await focusedPath(app), order[1]);
    await page.keyboard.press('[');
    t.is(await focusedPath(app), order[0]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.keyboard.press('n');
    t.is(await focusedThread(app), 'notes.txt:1');
    await page.keyboard.press('n');
    t.is(await focusedThread(app), 'zz-last.txt:1');
    await page.keyboard.press('p');
    t.is(await focusedThread(app), 'notes.txt:1');
    t.regex(page.url(), /\/runs\//, 'n in the diff is not New run');
    app.noErrors(t);
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`"Show file in the diff" scrolls the file to the top, and changed lines pass axe (${colorScheme})`, async (t) => {
    const app = await openApp(t, { viewport: DESKTOP, colorScheme });
    const runId = await diffRun(app.server);
    await app.goto(`/runs/${runId}?tab=worktree&file=src/tokens.ts`);
    // src/tokens.ts comes before a long file: the page can put it at the top of the window
    const file = app.page.locator('.d2h-file-wrapper.revealed', { hasText: 'src/tokens.ts' });
    await file.waitFor();
    await app.page.locator('nav.file-tree').waitFor();
    // what is drawn around it settles; the file is still where it was put
    await app.page.waitForTimeout(1000);
    const top = (await file.boundingBox())!.y;
    t.true(top >= 0 && top < DESKTOP.height / 2, `the file's top is in the top half of the window (${top})`);
    t.true(await file.locator('.d2h-file-diff').evaluate((e) => e === document.activeElement));
    await app.page.locator('.d2h-file-wrapper[data-path="src/tokens.ts"] ins').first().waitFor();
    await app.axe(t, `changed lines, ${colorScheme}`);
    await eventually(async () => detail(app.server, runId), (d) => d.standing === 'Succeeded');
    app.noErrors(t);
  });
}
