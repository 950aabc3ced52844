import '../helpers/env.js';
import test from 'ava';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { control, startRun, untilStanding } from '../helpers/steer.js';
import { GATE_ONLY } from '../helpers/server.js';
import { shot } from '../helpers/shots.js';

// "Needs you" reaches the person: the tab title and favicon carry the count of runs that need
// them, and, once turned on in Settings, a browser notification is shown when a run comes to
// need them; clicking it opens the run. The browser's Notification is wrapped by an init script
// that records each notification made (a double of the browser API); the permission is the
// real one, granted by the test. So every test here runs in the full chromium (fullChromium), not
// the run's shared headless shell: the shell has no notification service, and its
// Notification.permission stays 'denied' whatever is granted.


test.after.always(closeBrowser);

// plain JavaScript text: a function here would be compiled with helpers the page does not have
const RECORDER = `(() => {
  const Real = window.Notification;
  window.__notes = [];
  window.__asked = 0;
  class Recorded {
    constructor(title, options) { this.title = title; this.options = options || {}; this.onclick = null; this.closed = false; window.__notes.push(this); }
    close() { this.closed = true; }
    static get permission() { return Real.permission; }
    static requestPermission() { window.__asked++; return Real.requestPermission(); }
  }
  window.Notification = Recorded;
})();`;

const notes = (page: import('playwright-core').Page) =>
  page.evaluate(() => (window as unknown as { __notes: { title: string; options: { body?: string; tag?: string } }[] }).__notes.map((n) => ({ title: n.title, body: n.options.body, tag: n.options.tag })));

for (const viewport of VIEWPORTS) {
  test(`the title and favicon count runs that need you; a notification when one comes to, and its click opens the run (${viewport.name})`, async (t) => {
    t.timeout(120_000);
    const app = await openApp(t, { viewport, workflows: { gate: GATE_ONLY }, fullChromium: true });
    const { page, server } = app;
    await app.context.grantPermissions(['notifications']);
    await app.context.addInitScript({ content: RECORDER });
    const tag = viewport.width;

    await app.goto('/settings');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    t.is(await page.evaluate(() => (window as unknown as { __asked: number }).__asked), 0, 'the permission is never asked for on load');
    await page.getByLabel('Show a notification when a run needs me').check();
    await page.getByText('Permission: allowed.').waitFor();
    await app.axe(t, 'settings, notifications');
    await shot(page.locator('#set-notify'), `notify-settings-${tag}.png`);

    await app.goto('/');
    await page.waitForFunction(() => document.title === 'Runs · svc');
    const first = await startRun(server, { goal: 'wait at the gate', workflow: 'gate', title: 'Gate me <b>now</b>' });
    await page.waitForFunction(() => document.title === '(1) Runs · svc');
    t.regex((await page.locator('link[rel="icon"]').getAttribute('href'))!, /^data:image\/svg\+xml,/, 'the favicon carries a badge');
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length === 1);
    t.like((await notes(page))[0], { title: 'Gate me <b>now</b>', body: 'The run waits at a gate.' });
    await shot(page, `notify-board-${tag}.png`);
    await app.axe(t, 'runs, with one needing you');

    const second = await startRun(server, { goal: 'wait too', workflow: 'gate', title: 'Second gate' });
    await page.waitForFunction(() => document.title === '(2) Runs · svc');
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length === 2);

    // a click brings the tab to that run's page
    await page.evaluate(() => (window as unknown as { __notes: { onclick: () => void }[] }).__notes[0]!.onclick());
    await page.waitForURL(`**/runs/${first}`);

    await control(server, first, 'Resume');
    await control(server, second, 'Resume');
    await page.waitForFunction(() => !document.title.startsWith('('));
    t.is(await page.locator('link[rel="icon"]').getAttribute('href'), '/favicon.svg', 'the plain icon once nothing needs you');

    // a reload (a new connection) shows nothing twice; a new gate is one new notification
    await app.goto('/');
    const third = await startRun(server, { goal: 'and again', workflow: 'gate', title: 'Third gate' });
    await page.waitForFunction(() => document.title === '(1) Runs · svc');
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length >= 1);
    const after = await notes(page);
    t.deepEqual(after.map((n) => n.title), ['Third gate']);
    t.true(after[0]!.tag!.startsWith(`${third}:gate:`));
    app.noErrors(t);
  });
}

test('notifications off (the default): the count still shows, no notification is made', async (t) => {
  t.timeout(60_000);
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { gate: GATE_ONLY }, fullChromium: true });
  await app.context.grantPermissions(['notifications']);
  await app.context.addInitScript({ content: RECORDER });
  await app.goto('/');
  await startRun(app.server, { goal: 'g', workflow: 'gate', title: 'Quiet gate' });
  await app.page.waitForFunction(() => document.title === '(1) Runs · svc');
  await app.goto('/settings');
  t.deepEqual(await notes(app.page), []);
  t.false(await app.page.getByLabel('Show a notification when a run needs me').isChecked());
  app.noErrors(t);
});

test('a supervisor card waiting for a person counts and notifies; deciding it takes it off the count', async (t) => {
  t.timeout(120_000);
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { gate: GATE_ONLY }, fullChromium: true });
  const { page, server: s } = app;
  await app.context.grantPermissions(['notifications']);
  await app.context.addInitScript({ content: RECORDER });
  const json = { 'content-type': 'application/json' };
  t.is((await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), json)).status, 200);
  const sup = (await s.post('/api/supervisors', { project: s.projectId })).body;
  const key = (await s.get(`/api/supervisors/${sup.id}`)).body.key as string;
  const run = await startRun(s, { goal: 'hold', workflow: 'gate', title: 'Held for a card' });
  await untilStanding(s, run, 'Paused');

  await app.goto('/settings');
  await page.getByLabel('Show a notification when a run needs me').check();
  await app.goto('/');
  await page.waitForFunction(() => document.title === '(1) Runs · svc');

  const client = new Client({ name: 'notifications-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?supervisor=${encodeURIComponent(key)}`), {
    requestInit: { headers: { Authorization: `Bearer ${ensureToken(s.home)}` } },
  }));
  t.teardown(() => client.close());
  const asked = await call(client, 'message_run', { run, text: 'carry on', delivery: 'Hold', reason: 'nudge' });
  t.true(asked.structuredContent?.['awaitingApproval'] === true, textOf(asked));
  const card = String(asked.structuredContent?.['card']);

  await page.waitForFunction(() => document.title === '(2) Runs · svc');
  await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length === 1);
  t.deepEqual(await notes(page), [{ title: 'Held for a card', body: 'A supervisor asks to message_run.', tag: `card:${sup.id}:${card}` }]);
  await page.evaluate(() => (window as unknown as { __notes: { onclick: () => void }[] }).__notes[0]!.onclick());
  await page.waitForURL(`**/runs/${run}`);

  t.is((await s.post(`/api/supervisors/${sup.id}/approvals/${card}`, { decision: 'Deny' })).status, 200);
  await page.waitForFunction(() => document.title.startsWith('(1) '));
  app.noErrors(t);
});
