import test from 'ava';
import { startServer } from '../../lib/cli/serve.js';
import { freshHome } from '../helpers/env.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { GATED } from '../helpers/server.js';
import { closeBrowser, openApp, PHONE, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The app's shell in real Chromium at both sizes: every page reachable and named, accessible by
// axe and by keyboard, history routing (deep links, Back), run text shown as text, live updates
// over the push stream, and the window secret sent with every call.

test.after.always(closeBrowser);

const NAV = [['Runs', '/'], ['New run', '/new'], ['Projects', '/projects'], ['Workflows', '/workflows'], ['Supervisors', '/supervisors'], ['Machines', '/machines'], ['Usage', '/usage'], ['Triggers', '/triggers'], ['Personas', '/personas'], ['Skills', '/skills'], ['Settings', '/settings']] as const;

const EVIL = 'Fix <img src=x onerror="document.title=\'pwned\'"> it';

for (const viewport of VIEWPORTS) {
  test(`every page is reachable from the navigation, named, and passes axe (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    await startRun(app.server, { goal: 'a goal', title: EVIL, workflow: 'linear', start: false });
    await app.goto('/');
    const nav = app.page.getByRole('navigation', { name: 'Main' });
    t.deepEqual(await nav.getByRole('link').allTextContents(), NAV.map(([name]) => name));
    await app.page.getByRole('link', { name: EVIL }).waitFor();
    for (const [name, path] of NAV) {
      await nav.getByRole('link', { name, exact: true }).click();
      await app.page.waitForURL((u) => u.pathname === path);
      await app.page.getByRole('heading', { level: 1, name }).waitFor();
      t.is(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current'), 'page');
      t.is(await nav.locator('[aria-current="page"]').count(), 1);
      // the title follows the page's first render: wait for it, then assert it
      await app.page.waitForFunction((n) => document.title.startsWith(`${n} · `), name).catch(() => undefined);
      t.regex(await app.page.title(), new RegExp(`^${name} · svc$`));
      t.is(await app.page.getByRole('main').count(), 1);
      t.is(await app.page.getByRole('banner').count(), 1);
      await app.axe(t, name);
      // readable at this size: nothing wider than the window
      t.true(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} fits ${viewport.name}`);
    }
    app.noErrors(t);
  });
}

test('on a phone the navigation is one compact row on every page, and every entry is reached by keyboard and shown', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  const { page } = app;
  const banner = page.getByRole('banner');
  for (const [name, path] of NAV) {
    await app.goto(path);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    const box = (await banner.boundingBox())!;
    t.true(box.height <= 56, `the banner is ${box.height} px high on ${name}`);
    const current = (await page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').boundingBox())!;
    t.true(current.x >= 0 && current.x + current.width <= PHONE.width, `${name}'s own entry is in view`);
  }
  await shot(page, '/tmp/shell-nav-phone-light.png');
  await app.goto('/');
  await page.keyboard.press('Tab'); // the skip link
  await page.keyboard.press('Tab'); // the brand, a link to Runs
  for (const [name] of NAV) {
    await page.keyboard.press('Tab');
    t.is(await page.evaluate(() => document.activeElement?.textContent), name);
    const box = (await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).boundingBox())!;
    t.true(box.x >= 0 && box.x + box.width <= PHONE.width, `${name} scrolls into view when focused (${JSON.stringify(box)})`);
  }
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  app.noErrors(t);
});

test('deep links, Back and Forward, an unknown path, and run text shown as text', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const runId = await startRun(app.server, { goal: EVIL, title: EVIL, workflow: 'linear', start: false });
  await app.goto(`/runs/${runId}`);
  await app.page.getByRole('heading', { level: 1, name: EVIL }).waitFor();
  t.is(await app.page.locator('.goal').textContent(), EVIL);
  t.is(await app.page.locator('main img').count(), 0);
  t.is(await app.page.getByRole('link', { name: 'Runs', exact: true }).getAttribute('aria-current'), 'page', 'a run belongs to the Runs section');
  await app.page.getByRole('link', { name: 'Projects', exact: true }).click();
  await app.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  await app.page.goBack();
  await app.page.getByRole('heading', { level: 1, name: EVIL }).waitFor();
  await app.page.goForward();
  await app.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  await app.goto('/no/such/page');
  await app.page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
  await app.goto('/runs/r-none');
  t.regex(await app.page.getByRole('alert').textContent() ?? '', /no run|r-none/i);
  t.not(await app.page.title(), 'pwned');
  await app.axe(t);
  app.noErrors(t);
});

test('keyboard: the skip link comes first, links work with Enter, focus lands on the new page', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  await app.goto('/');
  await app.page.keyboard.press('Tab');
  t.is(await app.page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  await app.page.keyboard.press('Enter');
  t.is(await app.page.evaluate(() => document.activeElement?.id), 'main');
  await app.page.getByRole('link', { name: 'Workflows', exact: true }).focus();
  await app.page.keyboard.press('Enter');
  await app.page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
  t.is(new URL(app.page.url()).pathname, '/workflows');
  t.is(await app.page.evaluate(() => document.activeElement?.id), 'main', 'focus moves to the page, not left on the old link');
  app.noErrors(t);
});

test('the runs list and a run follow the push stream as runs move', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { gated: GATED } });
  await app.goto('/');
  await app.page.getByText('No runs yet').waitFor();
  const runId = await startRun(app.server, { goal: 'first', title: 'Live run', workflow: 'gated' });
  const row = app.page.locator(`[data-run="${runId}"]`);
  await row.getByRole('link', { name: 'Live run' }).waitFor();
  await row.locator('.badge', { hasText: 'Paused' }).waitFor({ timeout: 20_000 });
  await row.getByRole('link', { name: 'Live run' }).click();
  await app.page.getByRole('heading', { level: 1, name: 'Live run' }).waitFor();
  await app.page.locator('.badge', { hasText: 'Paused' }).waitFor();
  const d = (await app.server.get(`/api/runs/${runId}/detail`)).body;
  const r = await app.server.post(`/api/runs/${runId}/control`, { position: d.position, action: 'Resume' });
  t.is(r.status, 200, JSON.stringify(r.body));
  await untilStanding(app.server, runId, 'Succeeded');
  await app.page.locator('.badge', { hasText: 'Succeeded' }).waitFor();
  app.noErrors(t);
});

test('with a window secret, every call and the push stream carry it; without it the app shows the refusal', async (t) => {
  const home = freshHome();
  const server = await startServer({ home, port: 0, bind: '127.0.0.1', secret: 'window-secret-1' });
  t.teardown(() => server.close());
  const shared = { ...server, home, projectId: '', repo: '' } as never;
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, server: shared, secret: 'window-secret-1' });
  await app.goto('/');
  await app.page.getByText('No runs yet').waitFor();
  const streams: string[] = [];
  app.page.on('request', (req) => { if (req.url().includes('/api/')) streams.push(`${new URL(req.url()).pathname} ${req.headers()['authorization'] ?? 'none'}`); });
  await app.goto('/');
  await app.page.getByText('No runs yet').waitFor();
  t.true(streams.includes('/api/board Bearer window-secret-1'), streams.join('\n'));
  t.true(streams.includes('/api/events Bearer window-secret-1'), streams.join('\n'));
  t.true(streams.every((x) => x.endsWith(' Bearer window-secret-1')), streams.join('\n'));
  app.noErrors(t);

  const stranger = await openApp(t, { viewport: VIEWPORTS[0]!, server: shared });
  await stranger.goto('/');
  t.regex(await stranger.page.getByRole('alert').textContent() ?? '', /secret|authori/i);
});
