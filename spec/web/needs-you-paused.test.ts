import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { setRunCap } from '../helpers/http-kit.js';
import { testServer } from '../helpers/server.js';
import { control, detail, history, startRun, untilStanding } from '../helpers/steer.js';
import { githubOrigin } from '../helpers/code-host-origin.js';
import { TWO, loopHost, notifyCalls, recordNotifications, spendTheCycle } from '../helpers/pr-cycle-limit.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { shot } from '../helpers/shots.js';

// Issue 29, part 2, in real Chromium: runs svc paused for something only a person can settle (a
// budget, a harness that cannot start, the pull request loop's cycle limit) are under "Needs you" with the reason in words on the card,
// count in the tab's title, and ran the notification command once each; a run a person paused is
// not under "Needs you". Screenshots: $SVC_SHOTS/needs-you-paused-*.png.

test.after.always(closeBrowser);

const RECORDER = `(() => {
  const Real = window.Notification;
  window.__notes = [];
  class Recorded {
    constructor(title, options) { this.title = title; this.options = options || {}; window.__notes.push(this); }
    close() {}
    static get permission() { return Real.permission; }
    static requestPermission() { return Real.requestPermission(); }
  }
  window.Notification = Recorded;
  localStorage.setItem('svc.notify', JSON.stringify({ enabled: true, kinds: ['question', 'gate', 'failed', 'paused', 'card'] }));
})();`;

const calls = notifyCalls;

for (const viewport of VIEWPORTS) {
  test(`a budget pause and a harness problem are under Needs you, say why, count in the title and were told once (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const server = await testServer({ workflows: { two: TWO } });
    t.teardown(() => server.close());
    await setRunCap(server, 10);
    const out = await recordNotifications(server, ['paused']);
    // the full chromium: the run's shared headless shell has no notification service, and its
    // Notification.permission stays 'denied' whatever is granted
    const app = await openApp(t, { viewport, server, fullChromium: true });
    const { page } = app;
    await app.context.grantPermissions(['notifications']);
    await app.context.addInitScript({ content: RECORDER });
    await app.goto('/');
    await page.waitForFunction(() => document.title === 'Runs · svc');

    const spent = await startRun(server, { goal: 'Spend [cost:2]', workflow: 'two', title: 'Over budget', budgetUsd: 1 });
    const broken = await startRun(server, { goal: 'Work [nocli:claude]', workflow: 'two', title: 'No CLI' });
    const mine = await startRun(server, { goal: 'Wait [sleep:60000]', workflow: 'two', title: 'Paused by me' });
    await untilStanding(server, mine, 'Running');
    await control(server, mine, 'Pause');
    for (const id of [spent, broken, mine]) await untilStanding(server, id, 'Paused');

    await page.waitForFunction(() => document.title === '(2) Runs · svc');
    const needs = page.locator('[data-group="needs"]');
    await needs.locator('.board-row').nth(1).waitFor();
    t.is(await needs.getByRole('heading', { level: 2 }).textContent(), 'Needs you (2)');
    t.is(await needs.locator(`[data-run="${spent}"] [data-needs]`).textContent(), 'Budget reached');
    t.is(await needs.locator(`[data-run="${broken}"] [data-needs]`).textContent(), 'Harness problem');
    t.regex(await needs.locator(`[data-run="${spent}"] .board-reason`).textContent() ?? '', /^Paused: budget: spent \$2\.00 of \$1\.00 budget$/);
    t.regex(await needs.locator(`[data-run="${broken}"] .board-reason`).textContent() ?? '', /^Paused: harness problem: claude is not installed/);
    t.is(await page.locator(`[data-group="active"] [data-run="${mine}"]`).count(), 1, "a person's own pause is not under Needs you");
    t.is(await page.locator(`[data-group="active"] [data-run="${mine}"] [data-needs]`).count(), 0);
    await app.axe(t, 'runs, with pauses that need you');
    await shot(page, `${process.env['SVC_SHOTS']}/needs-you-paused-${viewport.width}.png`, { fullPage: true });

    // this browser's notifications (turned on): one each, saying why
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length === 2);
    const shown = await page.evaluate(() => (window as unknown as { __notes: { title: string; options: { body?: string } }[] }).__notes.map((n) => [n.title, n.options.body ?? '']));
    t.deepEqual(shown.sort(), [['No CLI', 'Harness problem: svc paused the run; it waits for you.'], ['Over budget', 'Budget reached: svc paused the run; it waits for you.']]);

    const told = await eventually(() => calls(out), (c) => c.length >= 2);
    t.deepEqual(told.map((c) => [c.kind, c.runId]).sort(), [['paused', spent], ['paused', broken]].sort());

    // raising the budget takes the run out of Needs you; the count follows
    const raised = await server.post(`/api/runs/${spent}/control`, { position: (await detail(server, spent)).position, action: 'Resume', budgetUsd: 10 });
    t.is(raised.status, 200, JSON.stringify(raised.body));
    await page.waitForFunction(() => document.title === '(1) Runs · svc');
    t.is(calls(out).length, 2, 'nothing more was told');
    app.noErrors(t);
  });
}

test('a run a supervisor card waits on is under Needs you with the card as its reason; deciding the card takes it out', async (t) => {
  t.timeout(120_000);
  const server = await testServer({ workflows: { two: TWO } });
  t.teardown(() => server.close());
  t.is((await server.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }))).status, 200);
  const sup = (await server.post('/api/supervisors', { project: server.projectId })).body;
  const key = (await server.get(`/api/supervisors/${sup.id}`)).body.key as string;
  const run = await startRun(server, { goal: 'Wait [sleep:60000]', workflow: 'two', title: 'Paused by me' });
  await untilStanding(server, run, 'Running');
  await control(server, run, 'Pause');
  await untilStanding(server, run, 'Paused');
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, server });
  const { page } = app;
  await app.goto('/');
  await page.locator(`[data-group="active"] [data-run="${run}"]`).waitFor();

  const client = new Client({ name: 'needs-you-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?supervisor=${encodeURIComponent(key)}`), {
    requestInit: { headers: { Authorization: `Bearer ${ensureToken(server.home)}` } },
  }));
  t.teardown(() => client.close());
  const asked = await call(client, 'message_run', { run, text: 'carry on', delivery: 'Hold', reason: 'nudge' });
  t.true(asked.structuredContent?.['awaitingApproval'] === true, textOf(asked));
  const card = String(asked.structuredContent?.['card']);

  await page.locator(`[data-group="needs"] [data-run="${run}"] [data-needs]`, { hasText: 'Supervisor card' }).waitFor();
  await page.waitForFunction(() => document.title === '(1) Runs · svc');
  await app.axe(t, 'runs, with a card waiting on a run');
  t.is((await server.post(`/api/supervisors/${sup.id}/approvals/${card}`, { decision: 'Deny' })).status, 200);
  await page.locator(`[data-group="active"] [data-run="${run}"]`).waitFor();
  await page.waitForFunction(() => document.title === 'Runs · svc');
  app.noErrors(t);
});

// one origin for the file: it is git's global insteadOf for the stand-in host's address
let origin: { bare: string; work: string } | undefined;

for (const viewport of VIEWPORTS) {
  test.serial(`the pull request loop's cycle limit puts the run under Needs you, says so, counts, and was told once (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    origin ??= githubOrigin();
    const host = await loopHost(origin);
    t.teardown(() => host.close());
    const { server } = host;
    const out = await recordNotifications(server, ['paused']);
    const runId = await startRun(server, { goal: 'Add the feature [write:feature.txt=done]', title: 'Loop', workflow: 'loop' });
    const number = (await untilStanding(server, runId, 'Waiting', 60_000)).pullRequestLoop.number as number;
    const app = await openApp(t, { viewport, server });
    const { page } = app;
    await app.goto('/');
    await page.locator(`[data-group="active"] [data-run="${runId}"]`).waitFor();
    await spendTheCycle(host, runId, number);
    const row = page.locator(`[data-group="needs"] [data-run="${runId}"]`);
    await row.locator('[data-needs]', { hasText: 'Cycle limit reached' }).waitFor();
    t.regex(await row.locator('.board-reason').innerText(), /^Paused: the pull request loop used its 1 cycle\(s\)/);
    await page.waitForFunction(() => document.title === '(1) Runs · svc');
    await app.axe(t, 'runs, with a cycle limit reached');
    const told = await eventually(() => calls(out), (c) => c.length >= 1);
    t.deepEqual(told.map((c) => [c.kind, c.runId]), [['paused', runId]]);
    app.noErrors(t);
  });
}
