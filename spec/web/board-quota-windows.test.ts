import anyTest, { type TestFn } from 'ava';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer, type TestServer } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The board in real Chromium says which harness is out of quota and why a run waits: a run whose
// claude turn was refused for quota waits for the window, a second claude run is held in the
// queue. The service's clock is an hour ahead of the browser's, so the window (its backoff from
// that clock) is still open for the browser however slow the machine is.

const test = anyTest as TestFn<{ s: TestServer; waiting: string; held: string; until: string }>;

test.before(async (t) => {
  const clock = new ManualClock(new Date(Date.now() + 3_600_000));
  const s = await testServer({ workflows: { strict: STRICT }, clock });
  const waiting = await startRun(s, { title: 'Out of quota', goal: '[quota]', workflow: 'strict', harness: 'claude' });
  const until = (await untilStanding(s, waiting, 'Waiting')).waitEndsAt as string;
  const held = await startRun(s, { title: 'Held for claude', goal: 'later', workflow: 'strict', harness: 'claude' });
  await eventually(() => detail(s, held), (d) => d.waitingOn?.harness === 'claude');
  t.context = { s, waiting, held, until };
});
test.after.always(async (t) => {
  await closeBrowser();
  await t.context.s?.close();
});

const hhmm = (iso: string): string => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

for (const viewport of VIEWPORTS) {
  test.serial(`the board shows claude's window and why runs wait on it, and passes axe (${viewport.name})`, async (t) => {
    const { s, waiting, held, until } = t.context;
    const app = await openApp(t, { viewport, server: s });
    await app.goto('/');
    const windows = app.page.locator('[data-harness-windows]');
    await windows.waitFor();
    t.regex(await windows.innerText(), new RegExp(`claude: limited until (\\S+ )?${hhmm(until)}`));
    const row = (id: string) => app.page.locator(`.board-row[data-run="${id}"] [data-quota="claude"]`);
    t.regex(await row(waiting).innerText(), new RegExp(`^waiting: claude limited until (\\S+ )?${hhmm(until)}$`));
    t.regex(await row(held).innerText(), /^waiting: claude limited until /);
    await app.axe(t, 'board with quota windows');
    await app.goto(`/runs/${encodeURIComponent(waiting)}`);
    t.regex(await app.page.locator('.run-facts [data-quota="claude"]').innerText(), /^waiting: claude limited until /);
  });
}
