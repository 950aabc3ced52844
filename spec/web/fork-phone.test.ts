import test from 'ava';
import { TWO_STEPS } from '../mcp/helpers/real.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, PHONE } from './browser.js';

// Issue 29, part 5 (phone): a fork page was seen scrolling sideways on a phone (440 px of content
// in 390). Not reproduced here (these pass on the code of the report too): the fork's page done and
// going, its Worktree and History tabs, its source, the board and the fork dialog all fit 390 px.
// Kept as the guard for it.

test.after.always(closeBrowser);

test('a fork\'s run page fits a phone\'s width, and so does its source\'s', async (t) => {
  t.timeout(90_000);
  const app = await openApp(t, { viewport: PHONE, workflows: { two: TWO_STEPS } });
  const { page, server } = app;
  const source = await startRun(server, { goal: '[write:one.txt=from step work][report:success]', title: 'Write the first file', workflow: 'two' });
  await untilStanding(server, source, 'Succeeded');
  const at = (await detail(server, source)).forkable[0].at as number;
  const made = await server.post(`/api/runs/${source}/forks`, { at, note: 'try the review again with a somewhat longer note than usual' });
  t.is(made.status, 200, JSON.stringify(made.body));
  const fork = made.body.runId as string;
  await untilStanding(server, fork, 'Succeeded');
  // a fork still going: its page while the agent works
  const going = await server.post(`/api/runs/${source}/forks`, { at, goal: 'wait here [silent]', note: 'a fork that is still going, with a note' });
  t.is(going.status, 200, JSON.stringify(going.body));
  await untilStanding(server, going.body.runId, 'Running');
  for (const [path, name] of [[`/runs/${going.body.runId}`, 'running fork'], ['/', 'board'], [`/runs/${going.body.runId}?tab=worktree`, 'running fork worktree']] as const) {
    await app.goto(path);
    await page.locator('main h1').waitFor();
    await page.waitForTimeout(500);
    const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth, [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 60)}`).join(' | ')] as const);
    t.true(scroll[0] <= scroll[1], `${name}: ${scroll[0]} px of content in ${scroll[1]}: ${scroll[2]}`);
  }
  for (const [path, name] of [[`/runs/${fork}`, 'fork'], [`/runs/${fork}?tab=history`, 'fork history'], [`/runs/${source}`, 'source'], [`/runs/${source}?tab=history`, 'source history']] as const) {
    await app.goto(path);
    await page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor();
    await page.waitForTimeout(300);
    const wide = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
      culprits: [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 60)}`),
    }));
    t.true(wide.scroll <= wide.width, `${name}: ${wide.scroll} px of content in ${wide.width}: ${wide.culprits.join(' | ')}`);
  }
  // the fork dialog too
  await app.goto(`/runs/${source}?tab=history`);
  await page.getByRole('button', { name: /^Fork from here/ }).first().click();
  const dialog = page.getByRole('dialog', { name: /^Fork from step/ });
  await dialog.waitFor();
  await page.waitForTimeout(300);
  const box = await dialog.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right, width: window.innerWidth, doc: document.documentElement.scrollWidth,
    culprits: [...el.querySelectorAll('*')].filter((x) => x.getBoundingClientRect().right > el.getBoundingClientRect().right + 1).slice(0, 5).map((x) => `${x.tagName.toLowerCase()}.${x.className}: ${(x.textContent ?? '').slice(0, 60)}`) }));
  t.true(box.scroll <= box.client && box.right <= box.width && box.doc <= box.width, `the fork dialog: ${JSON.stringify(box)}`);
  await app.axe(t, 'a fork on a phone');
  app.noErrors(t);
});
