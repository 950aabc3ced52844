import test from 'ava';
import { GATED } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { detail, history, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 31, comments in the diff as on GitHub, in real Chromium against the real server (the
// scripted harness acts on `[write:…]` in what it reads): a click on a line number opens a comment
// box right under that line, a drag over line numbers takes a range, drafts show under their lines
// and survive a reload, one bar at the bottom sends them, and the threads then read Current or
// Outdated at their lines once the agent has changed one of them. Screenshots: /tmp/w31-shots/.

test.after.always(closeBrowser);

const FIX = 'Capitalise it. [write:notes.txt=alpha\nBETA\ngamma\ndelta\n]';
const file = (app: AppSession) => app.page.locator('.d2h-file-wrapper', { hasText: 'notes.txt' });
const lineNo = (app: AppSession, n: number) => file(app).locator('.d2h-code-linenumber .line-num2').getByText(String(n), { exact: true });
/** the text of the drawn line a thread row sits right under (the rows between are other threads) */
const lineAbove = (app: AppSession, name: string) => app.page.locator('tr.review-row', { has: app.page.getByText(name) }).first().evaluate((row) => {
  let r = row.previousElementSibling;
  while (r?.classList.contains('review-row')) r = r.previousElementSibling;
  return r?.querySelector('.line-num2')?.textContent?.trim() ?? null;
});

for (const viewport of VIEWPORTS) {
  test(`comments are written under their lines, sent from one bar, and read current or outdated at their lines (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const phone = viewport !== VIEWPORTS[0];
    const app = await openApp(t, { viewport, workflows: { gated: GATED }, hasTouch: phone });
    const { page, server } = app;
    const runId = await startRun(server, { goal: '[write:notes.txt=alpha\nbeta\ngamma\ndelta\n]', title: 'Inline review', workflow: 'gated' });
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate');
    await app.goto(`/runs/${runId}?tab=worktree`);
    t.is(await page.getByRole('form', { name: 'Comment on the diff' }).count(), 0, 'the old form is gone');

    // a click (on a phone, a tap) on line 2's number: the box opens right under line 2, its text box focused
    if (phone) await lineNo(app, 2).tap(); else await lineNo(app, 2).click();
    const box = page.getByRole('form', { name: 'Comment on notes.txt:2' });
    const area = box.getByRole('textbox', { name: 'Comment on notes.txt:2' });
    await area.waitFor();
    t.true(await area.evaluate((el) => el === document.activeElement), 'the comment box has the focus');
    t.is(await lineAbove(app, 'Comment on notes.txt:2'), '2');
    const under = (await box.boundingBox())!, line = (await lineNo(app, 2).boundingBox())!;
    t.true(under.y > line.y && under.y - (line.y + line.height) < 40, `the box starts right below its line (${line.y} → ${under.y})`);
    await page.keyboard.type(FIX);
    await box.getByRole('button', { name: 'Add to review' }).click();
    await box.waitFor({ state: 'detached' });
    const bar = page.getByRole('region', { name: 'Draft review' });
    await bar.getByText('1 comment', { exact: true }).waitFor();

    // a drag from line 3's number to line 4's (on a phone, a tap and a shift-tap) takes the range; its thread sits under line 4
    if (phone) {
      await lineNo(app, 3).tap();
      await lineNo(app, 4).click({ modifiers: ['Shift'] });
    } else {
      await lineNo(app, 3).hover();
      await page.mouse.down();
      await lineNo(app, 4).hover();
      await page.mouse.up();
    }
    const range = page.getByRole('form', { name: 'Comment on notes.txt:3-4' });
    await range.getByRole('textbox').fill('These two are fine.');
    await range.getByRole('button', { name: 'Add to review' }).click();
    await bar.getByText('2 comments', { exact: true }).waitFor();
    t.is(await page.locator('[data-comment="draft"]').count(), 2);
    await bar.getByRole('textbox', { name: 'Summary (optional)' }).fill('Only the case.');
    const barBox = (await bar.boundingBox())!;
    t.true(Math.abs(barBox.y + barBox.height - viewport.height) < 2, 'the bar sits at the bottom of the window');

    // a reload keeps the draft, each comment under its line
    await page.reload();
    const draft2 = page.getByRole('textbox', { name: 'Comment on notes.txt:2' });
    await draft2.waitFor();
    t.is(await draft2.inputValue(), FIX);
    t.is(await lineAbove(app, 'Comment on notes.txt:2'), '2');
    t.is(await lineAbove(app, 'Comment on notes.txt:3-4'), '4');
    t.is(await bar.getByRole('textbox', { name: 'Summary (optional)' }).inputValue(), 'Only the case.');
    await app.axe(t, 'draft in the diff');
    await shot(page, `/tmp/w31-shots/after-draft-${viewport.width}.png`);

    await bar.getByRole('button', { name: 'Send to agent' }).click();
    await page.getByRole('status').filter({ hasText: /^Review recorded; sent back from the gate/ }).waitFor();
    await bar.waitFor({ state: 'detached' });
    const submitted = (await history(server, runId)).find((e) => e.type === 'ReviewSubmitted');
    t.like(submitted.data, { summary: 'Only the case.', comments: [{ path: 'notes.txt', line: 2, quote: 'beta', body: FIX }, { path: 'notes.txt', line: 3, endLine: 4, quote: 'gamma\ndelta' }] });

    // the agent changed line 2: its thread reads Outdated there, the range's Current under line 4
    await eventually(() => history(server, runId), (es) => es.filter((e) => e.type === 'StepStarted' && e.data.node === 'work').length === 2);
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate');
    await file(app).getByText('BETA', { exact: true }).waitFor();
    const outdated = page.locator('[data-comment="sent"]', { hasText: 'Capitalise it.' });
    await outdated.getByText('Outdated').waitFor();
    const current = page.locator('[data-comment="sent"]', { hasText: 'These two are fine.' });
    await current.getByText('Current').waitFor();
    t.is(await lineAbove(app, 'Capitalise it.'), '2');
    t.is(await lineAbove(app, 'These two are fine.'), '4');
    await app.axe(t, 'sent threads');
    await shot(page, `/tmp/w31-shots/after-sent-${viewport.width}.png`, { fullPage: true });
    await shot(file(app), `/tmp/w31-shots/after-sent-file-${viewport.width}.png`);
    app.noErrors(t);
  });
}

test('the whole-file comment opens at the file\'s top and covers every line the diff shows', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { gated: GATED } });
  const runId = await startRun(app.server, { goal: '[write:notes.txt=alpha\nbeta\n]', title: 'Whole file', workflow: 'gated' });
  await eventually(() => detail(app.server, runId), (d) => d.phase === 'AtGate');
  await app.goto(`/runs/${runId}?tab=worktree`);
  await file(app).getByRole('button', { name: 'Comment on file notes.txt' }).click();
  const box = app.page.getByRole('form', { name: 'Comment on the whole file notes.txt' });
  await box.getByRole('textbox').fill('Needs a title line.');
  await box.getByRole('button', { name: 'Add to review' }).click();
  const d = app.page.getByRole('textbox', { name: 'Comment on notes.txt:1-2' });
  await d.waitFor();
  t.is(await d.inputValue(), '(whole file) Needs a title line.');
  await app.axe(t, 'whole-file draft');
  app.noErrors(t);
});
