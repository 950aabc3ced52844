// A read the browser dropped on the way (net::ERR_NETWORK_CHANGED when the machine's network
// changes, as on a Wi-Fi switch) is made again: the run page's History, Thread and detail still
// show, in real Chromium against the real server. A write is not repeated by the app.
import test from 'ava';
import { untilStanding, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`the run page's first reads, dropped once on the way, are made again (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const run = await startRun(server, { goal: 'Say hello', title: 'Hello', workflow: 'linear' });
    await untilStanding(server, run, 'Succeeded');
    const dropped: string[] = [];
    // each of the page's reads fails the first time, as Chromium fails them when the network changes
    await page.route(/\/api\/runs\/[^/]+\/(detail|history|thread)\b/, async (route) => {
      const kind = /\/(detail|history|thread)\b/.exec(route.request().url())![1]!;
      if (dropped.includes(kind)) return route.continue();
      dropped.push(kind);
      return route.abort('connectionreset');
    });
    await app.goto(`/runs/${run}?tab=history`);
    await page.getByRole('list', { name: 'History' }).getByText(/run succeeded/i).waitFor({ timeout: 30_000 });
    t.deepEqual([...dropped].sort(), ['detail', 'history', 'thread'], 'each read was dropped once');
    await page.getByRole('tab', { name: 'Thread' }).click();
    await page.getByRole('list', { name: 'Thread' }).locator('li').first().waitFor({ timeout: 30_000 });
    t.is(await page.getByRole('alert').count(), 0, 'no error shown once the reads were made again');
  });
}

test.serial('a write that fails on the way is not repeated: the person is told', async (t) => {
  t.timeout(120_000);
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page, server } = app;
  const run = await startRun(server, { goal: 'Say hello', title: 'Hello', workflow: 'linear' });
  await untilStanding(server, run, 'Succeeded');
  await app.goto(`/runs/${run}`);
  let posts = 0;
  await page.route(/\/api\/runs\/[^/]+\/secure$/, (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts++;
    return route.abort('connectionreset');
  });
  await page.getByRole('region', { name: 'Run actions' }).getByRole('button', { name: 'Secure work' }).click();
  await page.getByRole('region', { name: 'Run actions' }).getByText(/cannot be reached/).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(4_500); // past every pause a read would be given
  t.is(posts, 1, 'the write was sent once');
});
