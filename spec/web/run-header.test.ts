import test from 'ava';
import { GATED } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 31, the compact header, in real Chromium: the title and its facts on one line, the actions
// in one toolbar with the rare ones in a menu, the goal on one line with "more", so at 1280x800 the
// first screen shows the tabs and the start of the content; Follow up closes the thread like a
// chat's input, and only on a run that can be followed up. Screenshots: /tmp/w31-shots/.

test.after.always(closeBrowser);

const GOAL = `Tidy the notes. [write:notes.txt=one\ntwo\n]\n${'Keep every line short and say why in the commit. '.repeat(4)}`;
const box = async (app: AppSession, sel: string) => (await app.page.locator(sel).first().boundingBox())!;

for (const viewport of VIEWPORTS) {
  test(`the run page's first screen shows the tabs and the start of the content (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { gated: GATED } });
    const runId = await startRun(app.server, { goal: GOAL, title: 'Header run', workflow: 'linear' });
    await untilStanding(app.server, runId, 'Succeeded');
    await app.goto(`/runs/${runId}`);
    const thread = app.page.getByRole('list', { name: 'Thread' });
    await thread.locator('li').first().waitFor();
    const tabs = await box(app, '[role="tablist"]');
    const first = (await thread.locator('li').first().boundingBox())!;
    if (viewport === DESKTOP) {
      t.true(tabs.y + tabs.height < viewport.height / 2, `the tabs are in the top half of the first screen (${tabs.y})`);
      t.true(first.y + 20 < viewport.height, `the thread starts on the first screen (${first.y})`);
      // the facts share the title's line
      const h1 = await box(app, 'h1'), facts = await box(app, '.run-facts');
      t.true(Math.abs((facts.y + facts.height / 2) - (h1.y + h1.height / 2)) < h1.height / 2, `facts on the title's line (${h1.y}, ${facts.y})`);
    } else {
      t.true(tabs.y < viewport.height, `on a phone the tabs are on the first screen too (${tabs.y})`);
    }
    // the goal is one line until "more" opens it
    const goal = app.page.locator('.run-goal .goal');
    const one = (await goal.boundingBox())!.height;
    const more = app.page.getByRole('button', { name: 'more', exact: true });
    t.is(await more.getAttribute('aria-expanded'), 'false');
    t.true(one < 30, `one line (${one})`);
    await shot(app.page, `/tmp/w31-shots/after-thread-${viewport.width}.png`);
    await more.click();
    await app.page.getByRole('button', { name: 'less', exact: true }).waitFor();
    t.true((await goal.boundingBox())!.height > one * 2, 'opened, the whole goal shows');
    // Follow up closes the thread (after its last row), as a chat's input
    const form = app.page.getByRole('form', { name: 'Follow up' });
    await form.waitFor();
    t.true(await thread.evaluate((list, f) => (list.compareDocumentPosition(f!) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, await form.elementHandle()), 'Follow up comes after the thread');
    await app.axe(t, 'compact header');
    t.true(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page fits the window');
    await app.page.goto(`${app.server.url}/runs/${runId}?tab=worktree`);
    await app.page.locator('.d2h-file-wrapper').first().waitFor();
    await shot(app.page, `/tmp/w31-shots/after-diff-${viewport.width}.png`);
    app.noErrors(t);
  });
}

test('no Follow up where none is possible: a run still going has the message box there instead', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, workflows: { gated: GATED } });
  const runId = await startRun(app.server, { goal: 'look [report:success]', title: 'Going run', workflow: 'gated' });
  await eventually(() => detail(app.server, runId), (d) => d.phase === 'AtGate');
  await app.goto(`/runs/${runId}`);
  await app.page.getByRole('form', { name: 'Message the agent' }).waitFor();
  t.is(await app.page.getByRole('form', { name: 'Follow up' }).count(), 0);
  const tabs = await box(app, '[role="tablist"]');
  t.true(tabs.y + tabs.height < DESKTOP.height, `at a gate the tabs are still on the first screen (${tabs.y})`);
  await app.axe(t, 'a going run');
  app.noErrors(t);
});
