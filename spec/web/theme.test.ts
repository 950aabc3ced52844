import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATED } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, PHONE, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// Light and dark in real Chromium: the app follows the system's prefers-color-scheme, Settings
// overrides it for this browser (remembered over a reload), and every page, a run's graph and diff
// included, passes axe (colour contrast among it) in both themes at both sizes. The favicon too.

test.after.always(closeBrowser);

const PAGES = [['Runs', '/'], ['New run', '/new'], ['Projects', '/projects'], ['Workflows', '/workflows'], ['Supervisors', '/supervisors'], ['Machines', '/machines'], ['Usage', '/usage'], ['Triggers', '/triggers'], ['Personas', '/personas'], ['Skills', '/skills'], ['Settings', '/settings']] as const;

const DARK_BG = 'rgb(15, 17, 21)';
const LIGHT_BG = 'rgb(255, 255, 255)';
const background = (app: AppSession) => app.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const size = (v: typeof DESKTOP) => (v === PHONE ? 'phone' : 'desktop');

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every page and a run's thread, graph and diff pass axe in the ${colorScheme} theme (${viewport.name})`, async (t) => {
      const app = await openApp(t, { viewport, colorScheme, workflows: { gated: GATED } });
      const { page } = app;
      const runId = await startRun(app.server, { goal: '[ask:Which colour?|red|blue] [write:README.md=changed]', title: 'Themed run', workflow: 'gated' });
      await startRun(app.server, { goal: 'g', title: 'Waiting run', workflow: 'linear', start: false });
      for (const [name, path] of PAGES) {
        await app.goto(path);
        await page.getByRole('heading', { level: 1, name }).waitFor();
        if (path === '/') await page.locator('.board-row').nth(1).waitFor();
        t.is(await background(app), colorScheme === 'dark' ? DARK_BG : LIGHT_BG, `${name} follows the system (${colorScheme})`);
        await app.axe(t, `${name}, ${colorScheme}`);
        if (path === '/' || path === '/settings') await shot(page, `/tmp/shell-${path === '/' ? 'runs' : 'settings'}-${size(viewport)}-${colorScheme}.png`, { fullPage: true });
      }

      await app.goto(`/runs/${runId}`);
      await page.getByRole('region', { name: 'The agent asks' }).getByRole('button', { name: 'blue' }).click({ timeout: 20_000 });
      await untilStanding(app.server, runId, 'Paused');
      await page.locator('.run-facts .badge', { hasText: 'Paused' }).waitFor();
      await app.axe(t, `run thread, ${colorScheme}`);
      await page.getByRole('tab', { name: 'Workflow', exact: true }).click();
      await page.locator('.wf-graph svg g.node.current').waitFor();
      await app.axe(t, `run graph, ${colorScheme}`);
      const folder = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0];
      writeFileSync(join(folder.directory, 'app.ts'), '// a comment\nexport const answer: number = 42;\nconst s = `text ${answer}`;\n');
      await page.getByRole('tab', { name: 'Worktree', exact: true }).click();
      await page.locator('.diff .d2h-file-name', { hasText: 'app.ts' }).first().waitFor();
      await app.axe(t, `run diff, ${colorScheme}`);
      await shot(page, `/tmp/shell-run-diff-${size(viewport)}-${colorScheme}.png`, { fullPage: true });
      app.noErrors(t);
    });
  }
}

test('Settings › Appearance overrides the system theme, is remembered over a reload, and System follows the system again', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, colorScheme: 'dark' });
  const { page } = app;
  await app.goto('/settings');
  const theme = page.getByRole('group', { name: 'Theme' });
  t.true(await theme.getByRole('radio', { name: 'System' }).isChecked());
  t.is(await background(app), DARK_BG);

  await theme.getByRole('radio', { name: 'Light' }).check();
  t.is(await background(app), LIGHT_BG, 'applied at once');
  await page.reload();
  await page.getByRole('group', { name: 'Theme' }).waitFor();
  t.true(await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Light' }).isChecked());
  t.is(await background(app), LIGHT_BG, 'remembered');
  await app.goto('/');
  t.is(await background(app), LIGHT_BG, 'on every page');
  await app.axe(t, 'light chosen on a dark system');

  await app.goto('/settings');
  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).check();
  await page.emulateMedia({ colorScheme: 'light' });
  t.is(await background(app), DARK_BG, 'a chosen theme holds whatever the system says');
  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'System' }).check();
  t.is(await background(app), LIGHT_BG, 'System follows the system');
  await page.emulateMedia({ colorScheme: 'dark' });
  t.is(await background(app), DARK_BG, '…as it changes');
  t.is(await page.evaluate(() => localStorage.getItem('svc.theme')), null);
  app.noErrors(t);
});

test('the favicon: linked from the page as SVG, and /favicon.ico answered; no request of a page load is a 404', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP });
  const missing: string[] = [];
  app.page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  await app.goto('/');
  await app.page.getByText('No runs yet').waitFor();
  const href = await app.page.locator('link[rel="icon"]').getAttribute('href');
  t.is(href, '/favicon.svg');
  const svg = await app.page.request.get('/favicon.svg');
  t.is(svg.status(), 200);
  t.regex(svg.headers()['content-type'] ?? '', /^image\/svg\+xml/);
  const ico = await app.page.request.get('/favicon.ico');
  t.is(ico.status(), 200);
  t.regex(ico.headers()['content-type'] ?? '', /^image\//);
  t.deepEqual([...(await ico.body()).subarray(0, 4)], [0, 0, 1, 0], 'an ICO file');
  t.deepEqual(missing, []);
  app.noErrors(t);
});
