import test from 'ava';
import { GATED, LINEAR } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// Reviewing a run's diff in real Chromium against the real server (runs on the scripted harness):
// a line picked in the diff gets a comment under it, the draft survives a reload, "Send to agent" sends
// it, the thread shows the review and the diff shows it at its line with whether its code is still current.
// At a gate the review is the person's answer: the run goes back to the agent step with it. The
// scripted agent acts on directives in its prompt, so the comment's `[write:…]` is its edit of the
// commented line; once it lands, the Worktree tab marks the comment Outdated.
// Screenshots go to /tmp/reviews-*.png for a look.

test.after.always(closeBrowser);

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/reviews-${name}-${w}.png`, { fullPage: true });
const EDITED = 'Call it the second line. [write:notes.txt=second line]';
const tab = (app: AppSession, name: string) => app.page.getByRole('tab', { name, exact: true }).click();

for (const viewport of VIEWPORTS) {
  test(`pick a line in the diff, comment, reload with the draft kept, send; the thread shows the review (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { gated: GATED } });
    const runId = await startRun(app.server, { goal: '[write:notes.txt=first line]', title: 'Reviewed run', workflow: 'gated' });
    await eventually(() => detail(app.server, runId), (d) => d.phase === 'AtGate');
    await app.goto(`/runs/${runId}`);
    await tab(app, 'Worktree');
    // the new side's line 1 of notes.txt, picked by its line number
    await app.page.locator('.d2h-file-wrapper', { hasText: 'notes.txt' }).locator('.d2h-code-linenumber .line-num2', { hasText: '1' }).first().click();
    await app.page.locator('.d2h-file-wrapper', { hasText: 'notes.txt' }).locator('tr.picked', { hasText: 'first line' }).waitFor();
    await takeShot(app.page, `/tmp/reviews-picked-${viewport.width}.png`);
    // the click opened the comment box right under the line, its text box focused (issue 31)
    const form = app.page.getByRole('form', { name: 'Comment on notes.txt:1' });
    t.true(await form.getByRole('textbox').evaluate((el) => el === document.activeElement));
    await app.page.keyboard.type('Say which line this is.');
    await form.getByRole('button', { name: 'Add to review' }).click();
    const draft = app.page.getByRole('region', { name: 'Draft review' });
    await draft.getByText('1 comment', { exact: true }).waitFor();
    await draft.getByRole('textbox', { name: 'Summary (optional)' }).fill('Small things only.');

    await app.page.reload();
    await tab(app, 'Worktree');
    await draft.getByText('1 comment', { exact: true }).waitFor();
    const drafted = app.page.getByRole('textbox', { name: 'Comment on notes.txt:1' });
    t.is(await drafted.inputValue(), 'Say which line this is.', 'the draft survives a reload');
    t.is(await draft.getByRole('textbox', { name: 'Summary (optional)' }).inputValue(), 'Small things only.');
    // edited in place, then sent
    await drafted.fill(EDITED);
    await app.axe(t, 'draft review');
    await shot(app, 'draft', viewport.width);
    await draft.getByRole('button', { name: 'Send to agent' }).click();
    await app.page.getByRole('status').filter({ hasText: 'Review recorded; sent back from the gate: the run goes back to step work, whose turn opens with the review; it comes back to the gate review after.' }).waitFor();
    await draft.waitFor({ state: 'detached' });
    const submitted = (await history(app.server, runId)).find((e) => e.type === 'ReviewSubmitted');
    t.like(submitted.data, { summary: 'Small things only.', comments: [{ path: 'notes.txt', side: 'new', line: 1, quote: 'first line', body: EDITED }] });
    // at a gate the review sends the run back: the agent step runs again with it, then the gate
    await eventually(() => history(app.server, runId), (es) => es.filter((e) => e.type === 'StepStarted' && e.data.node === 'work').length === 2);
    await eventually(() => detail(app.server, runId), (d) => d.phase === 'AtGate');
    // the agent rewrote the line it was told about: the Worktree tab, read again as the run moved, says so
    await app.page.locator('[data-comment="sent"][data-outdated="true"]', { hasText: EDITED }).getByText('Outdated').waitFor();
    await app.page.locator('.d2h-file-wrapper', { hasText: 'notes.txt' }).getByText('second line', { exact: true }).waitFor();
    await app.axe(t, 'review outdated');
    await shot(app, 'outdated', viewport.width);
    await tab(app, 'Thread');
    await app.page.getByRole('list', { name: 'Thread' }).locator('li[data-kind="review"]', { hasText: `notes.txt:1: ${EDITED}` }).waitFor();
    await shot(app, 'thread', viewport.width);
    await app.axe(t, 'thread with a review');
    app.noErrors(t);
  });
}

test('a review of an ended run becomes a follow-up run, linked from the draft', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, workflows: { linear: LINEAR } });
  const runId = await startRun(app.server, { goal: '[write:notes.txt=first line]', title: 'Ended run', workflow: 'linear' });
  await untilStanding(app.server, runId, 'Succeeded');
  await app.goto(`/runs/${runId}?tab=worktree`);
  await app.page.locator('.d2h-file-wrapper', { hasText: 'notes.txt' }).locator('.d2h-code-linenumber .line-num2', { hasText: '1' }).first().click();
  const form = app.page.getByRole('form', { name: 'Comment on notes.txt:1' });
  await form.getByRole('textbox').fill('One more line, please.');
  await form.getByRole('button', { name: 'Add to review' }).click();
  await form.waitFor({ state: 'detached' });
  const draft = app.page.getByRole('region', { name: 'Draft review' });
  await draft.getByRole('button', { name: 'Send to agent' }).click();
  await app.page.getByRole('status').filter({ hasText: /the review went to follow-up run/ }).waitFor();
  const link = app.page.getByRole('link', { name: 'Open the follow-up run' });
  const next = (await history(app.server, runId)).find((e) => e.type === 'ReviewSubmitted').data.followUp as string;
  t.is(await link.getAttribute('href'), `/runs/${next}`);
  await app.axe(t, 'review became a follow-up');
  await shot(app, 'follow-up', DESKTOP.width);
  await eventually(() => detail(app.server, next), (d) => ['Succeeded', 'Failed'].includes(d.standing));
  app.noErrors(t);
});
