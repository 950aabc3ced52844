import '../helpers/env.js';
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordPath, type ServerRecord } from '../../lib/cli/server-record.js';
import { spawnApp } from '../helpers/app-window.js';
import { launch } from '../helpers/browser.js';
import { eventually, freshHome, repoRoot, sleep, tempDir, writtenLine } from '../helpers/env.js';
import { webBuilt } from '../web/browser.js';

// No window process to watch: the default browser (a double for xdg-open that writes the URL
// down), or a Chromium that hands the window over to one already running (a double that writes
// the URL down and ends at once). The test opens the URL in Chromium; svc app then lives as long
// as the app's push stream.

test.before(() => webBuilt());

const DOUBLES = join(repoRoot, 'spec/fixtures/default-browser');

const cases: { name: string; env: Record<string, string> }[] = [
  { name: 'with the default browser', env: { SVC_BROWSER: '', PATH: DOUBLES /* and no Chromium */ } },
  { name: 'with a Chromium that hands the window to one already running', env: { SVC_BROWSER: join(DOUBLES, 'handoff-browser') } },
];

for (const c of cases) test(`${c.name}, svc app stops once the last /api/events stream has been gone for the grace period`, async (t) => {
  const home = freshHome();
  const opened = join(tempDir('svc-opened-'), 'url');
  const app = await spawnApp(home, { ...c.env, SVC_TEST_OPENED: opened, SVC_APP_GRACE_SECONDS: '2', SVC_APP_FIRST_SECONDS: '120' });
  t.teardown(() => { app.end(); });
  const url = await eventually(() => writtenLine(opened), (u) => u !== '', 90_000);
  t.regex(url, /^http:\/\/127\.0\.0\.1:\d+\/#code=/);
  const secret = (JSON.parse(readFileSync(recordPath(home), 'utf8')) as ServerRecord).secret!;

  const bare = await fetch(`${app.url}/api/events?runs`);
  t.is(bare.status, 401, 'the stream needs the secret too');

  const browser = await launch();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  // Straight to a page without live content of its own: the window's own stream is the only one.
  const streams: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/events')) streams.push(r.url()); });
  const u = new URL(url);
  await page.goto(`${u.origin}/settings${u.hash}`);
  t.is(await eventually(() => page.evaluate(() => sessionStorage.getItem('svc.secret')), (v) => v !== null, 60_000), secret);
  t.false(page.url().includes('code='));
  await eventually(() => streams.some((s) => s.endsWith('/api/events?runs')), (v) => v, 60_000);
  await sleep(4000); // twice the grace period: the open stream keeps the server
  t.is(app.child.exitCode, null);
  t.true(existsSync(recordPath(home)));

  await page.close(); // the window goes, and its stream with it
  t.is(await app.exited, 0);
  t.false(existsSync(recordPath(home)));
  t.regex(app.output(), /stopping: the app window has been gone for the grace period/);
  t.false(app.output().includes(secret));
});

test('with the default browser, a window that never connects stops svc app after the first wait', async (t) => {
  const home = freshHome();
  const opened = join(tempDir('svc-opened-'), 'url');
  // a first wait of 0 s runs out while the server is still starting: the stop is kept for then
  const app = await spawnApp(home, { SVC_BROWSER: '', PATH: DOUBLES, SVC_TEST_OPENED: opened, SVC_APP_FIRST_SECONDS: '0' });
  t.teardown(() => { app.end(); });
  t.is(await app.exited, 0);
  t.false(existsSync(recordPath(home)));
  t.regex(app.output(), /stopping: no app window connected within the first wait/);
});
