// Issue 32: the Thread's times were UTC ("20:59" for a person in New York at 15:59). They are in
// the browser's own zone, with the full date, time and zone on hover; the same in the History
// and a tool call's card. Chromium is told it is in New York (timezoneId).
import test from 'ava';
import { right } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../../journal/run-events.js';
import { eventually } from '../helpers/env.js';
import { GATE_ONLY } from '../helpers/server.js';
import { detail, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

// 19:59:07 UTC on a summer day is 15:59:07 in New York (EDT, UTC-4)
const AT = '2026-06-01T19:59:07.000Z';

for (const viewport of VIEWPORTS) {
  test.serial(`the thread's times are the browser's local time, the full time on hover (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const app = await openApp(t, { viewport, workflows: { gate: GATE_ONLY }, timezoneId: 'America/New_York' });
    const { page, server } = app;
    const runId = await startRun(server, { workflow: 'gate', goal: 'Times' });
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate', 60_000);
    const e: RunEvent = { type: 'AgentReplied', data: { stepId: 's99', text: 'Said at a known time' } };
    t.is(server.service.core.runs.transact(runId, () => right([e]), { at: AT, onStale: 'retry' })._tag, 'Right');
    server.service.core.logs.activity.record(runId, 's99', { phase: 'started', callId: 'c1', tool: 'Bash', kind: 'command', title: 'ls', at: AT }, AT);

    await app.goto(`/runs/${runId}`);
    const row = page.locator('li.t-agent', { hasText: 'Said at a known time' });
    await row.waitFor({ timeout: 60_000 });
    const time = row.locator('time');
    t.is(await time.innerText(), '15:59:07');
    t.is(await time.getAttribute('dateTime'), AT);
    const full = await time.getAttribute('title');
    t.regex(full ?? '', /2026/);
    t.regex(full ?? '', /3:59:07/);
    t.regex(full ?? '', /EDT|GMT-4/);
    t.is(await page.locator('li.card', { hasText: 'ls' }).locator('time').evaluate((el) => el.textContent), '15:59:07', 'a tool call\'s time too');
    await shot(page, `/tmp/local-times-${viewport.width}.png`);
    await app.axe(t, 'local times');
    app.noErrors(t);
  });
}
