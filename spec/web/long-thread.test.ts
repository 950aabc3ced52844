// A long thread's first page in real Chromium against the real server: 21 agent messages, each
// followed by its own tool calls (302 calls in all), more than one page of calls. The thread and
// the calls are paged apart; the first page must not show messages whose calls were not read
// (the walk of issue 32 saw "Batch 1 … Batch 21" with no cards under them). Every message shown
// has all its calls under it; "Show earlier" brings the earlier ones, each again with its calls.
// axe at both sizes; screenshots to /tmp.
import test from 'ava';
import { callsOf, MESSAGES, seedLongThread } from '../helpers/long-thread.js';
import { GATE_ONLY } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { detail, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

// per message shown: its text and the titles of the cards after it, up to the next message
const shownMessages = (app: AppSession) => app.page.getByRole('list', { name: 'Thread' }).evaluate((ol) => {
  const out: { text: string; cards: string[] }[] = [];
  for (const li of ol.querySelectorAll('li.t-agent, li.card')) {
    if (li.classList.contains('t-agent')) out.push({ text: li.querySelector('.prose')?.textContent ?? '', cards: [] });
    else out.at(-1)?.cards.push(li.querySelector('.title')?.textContent ?? '');
  }
  return out;
});

for (const viewport of VIEWPORTS) {
  test.serial(`a long thread's page shows each message with its own calls (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    const app = await openApp(t, { viewport, workflows: { gate: GATE_ONLY } });
    const runId = await startRun(app.server, { workflow: 'gate', goal: 'A long run' });
    await eventually(() => detail(app.server, runId), (d) => d.phase === 'AtGate', 60_000);
    seedLongThread(app.server, runId);
    await app.goto(`/runs/${runId}`);
    const thread = app.page.getByRole('list', { name: 'Thread' });
    await thread.locator('li.t-agent', { hasText: `Batch ${MESSAGES}` }).waitFor({ timeout: 60_000 });
    await thread.locator('li.card', { hasText: `batch ${MESSAGES} call ${callsOf(MESSAGES)}` }).waitFor();

    const check = (shown: { text: string; cards: string[] }[]) => {
      t.true(shown.length > 0, 'messages are shown');
      for (const m of shown) {
        const k = Number(/Batch (\d+)/.exec(m.text)?.[1]);
        t.deepEqual(m.cards, Array.from({ length: callsOf(k) }, (_, c) => `batch ${k} call ${c + 1}`), `message ${m.text} has its own calls`);
      }
    };
    const first = await shownMessages(app);
    check(first);
    t.true(first.length < MESSAGES, 'the first page holds a part of the run');
    t.is(first.at(-1)?.text, `Batch ${MESSAGES}`);
    await shot(app.page, `/tmp/long-thread-${viewport.width}.png`);
    await app.axe(t, 'a long thread');

    const earlier = app.page.getByRole('button', { name: 'Show earlier' });
    for (let n = 0; n < 6 && await earlier.count() > 0; n++) {
      await earlier.click();
      await app.page.waitForFunction(() => !document.querySelector('button.earlier[disabled]'));
    }
    t.is(await earlier.count(), 0, 'the start is reached');
    const all = await shownMessages(app);
    check(all);
    t.is(all.length, MESSAGES);
    app.noErrors(t);
  });
}
