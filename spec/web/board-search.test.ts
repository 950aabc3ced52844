import test from 'ava';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp } from './browser.js';

// Issue 29, part 5 (board search): searching for the title a follow-up chain's card shows found
// nothing ("Tidy usage" → 0 rows: the card is titled by its first run, the search read its latest),
// and `/` did nothing on a run page.

test.after.always(closeBrowser);

test('a follow-up chain is found by the title its card shows; / on a run page goes to the board search', async (t) => {
  t.timeout(90_000);
  const app = await openApp(t, { viewport: DESKTOP });
  const { page, server } = app;
  const first = await startRun(server, { goal: 'tidy the usage page [report:success]', title: 'Tidy usage', workflow: 'linear' });
  await untilStanding(server, first, 'Succeeded');
  const next = await server.post(`/api/runs/${first}/follow-ups`, { text: 'and the totals too [report:success]' });
  t.is(next.status, 200, JSON.stringify(next.body));
  await untilStanding(server, next.body.runId, 'Succeeded');
  await startRun(server, { goal: 'other [report:success]', title: 'Something else', workflow: 'linear' });

  await app.goto('/?q=Tidy%20usage');
  const cards = page.locator('.board-row');
  await cards.first().waitFor();
  t.deepEqual(await page.locator('.board-row .title').allTextContents(), ['Tidy usage']);
  t.is(await cards.first().getAttribute('data-run'), next.body.runId, 'the chain\'s card: its latest attempt');

  await app.goto(`/runs/${first}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.keyboard.press('/');
  await page.waitForURL((u) => u.pathname === '/');
  await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'search');
  app.noErrors(t);
});
