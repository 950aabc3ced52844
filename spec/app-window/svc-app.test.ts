import '../helpers/env.js';
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { profileDir } from '../../lib/app/browser.js';
import { recordPath, type ServerRecord } from '../../lib/cli/server-record.js';
import { closeWindow, connectWindow, spawnApp, untilAppConnected } from '../helpers/app-window.js';
import { CLI } from '../helpers/cli.js';
import { eventually, freshHome, repoRoot } from '../helpers/env.js';
import { webBuilt } from '../web/browser.js';

// The real `svc app` opening the real Chromium: the window trades its one-time code for the
// secret, /api answers only with the secret, and the server lives exactly as long as the window.

const run = promisify(execFile);

const readRecord = (home: string): ServerRecord => JSON.parse(readFileSync(recordPath(home), 'utf8')) as ServerRecord;

/** the command lines of the window's browser processes (its own profile tells them apart) */
const windowProcesses = (home: string): string[] =>
  readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmd.includes(`--user-data-dir=${profileDir(home)}`) ? [cmd] : [];
    } catch {
      return [];
    }
  });

/** the one-time code as `svc app` handed it to the window, read from the browser's command line */
const codeOnCommandLine = (home: string): string => {
  for (const cmd of windowProcesses(home)) {
    const m = /--app=[^\0]*#code=([^\0&]+)/.exec(cmd);
    if (m) return decodeURIComponent(m[1]!);
  }
  throw new Error('no window with a code found');
};

test.before(() => webBuilt());

const exchange = (url: string, body: unknown) =>
  fetch(`${url}/api/app/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('the window trades its one-time code for the secret once, and /api answers only with the secret', async (t) => {
  const home = freshHome();
  const app = await spawnApp(home);
  t.teardown(() => { if (!t.passed) t.log(app.output()); app.end(); });
  const record = readRecord(home);
  const secret = record.secret!;
  t.regex(secret, /^[\w-]{40,}$/);
  t.is(statSync(recordPath(home)).mode & 0o777, 0o600);
  t.is(record.url, `${app.url}/`);

  const bare = await fetch(`${app.url}/api/health`);
  t.is(bare.status, 401);
  t.truthy(((await bare.json()) as { detail: string }).detail);
  t.is((await fetch(`${app.url}/api/runs`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
  t.is((await fetch(`${app.url}/api/health`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
  // async, not spawnSync: a test blocked past the server's keep-alive timeout would reuse a closed socket
  const cli = await run(process.execPath, [...CLI, 'runs'], { cwd: repoRoot, env: { ...process.env, SVC_HOME: home }, encoding: 'utf8' });
  t.is(cli.stdout, 'no runs\n', 'the svc client commands send the recorded secret');
  const page0 = await fetch(`${app.url}/`);
  t.is(page0.status, 200, 'the app files load without the secret');
  t.regex(await page0.text(), /<html/);

  const code = codeOnCommandLine(home);
  const { browser, page } = await connectWindow(home);
  t.teardown(() => browser.close());
  // The app trades the code at start-up, before its first /api call, and drops it from the URL.
  t.is(await eventually(() => page.evaluate(() => sessionStorage.getItem('svc.secret')), (v) => v !== null, 60_000), secret);
  await eventually(() => page.url(), (u) => !u.includes('code='), 60_000);
  t.false(page.url().includes(code));
  t.false(page.url().includes(secret));
  // A reload shows every /api call the app makes: all answered, none refused.
  const calls: { url: string; status: number }[] = [];
  page.on('response', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) calls.push({ url: r.url(), status: r.status() }); });
  await page.reload();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await eventually(() => calls.some((c) => c.url.endsWith('/api/events?runs')), (seen) => seen, 60_000);
  t.true(calls.length > 0);
  t.deepEqual(calls.filter((c) => c.status >= 400), [], 'no /api call of the app was refused');
  t.false(page.url().includes(secret));

  const again = await exchange(app.url, { code });
  t.is(again.status, 401, 'a code works once');
  t.regex(((await again.json()) as { detail: string }).detail, /used or expired/);
  t.is((await exchange(app.url, { code: 'made-up' })).status, 401);
  t.is((await exchange(app.url, {})).status, 400);
  t.is((await exchange(app.url, { code: 'x', secret: 'y' })).status, 400);

  // the spent code in a new window: the app says it could not sign in
  const late = await browser.contexts()[0]!.newPage();
  await late.goto(`${app.url}/#code=${encodeURIComponent(code)}`);
  await late.getByRole('alert').filter({ hasText: /could not sign in: .*used or expired/ }).waitFor();
  t.is(await late.evaluate(() => sessionStorage.getItem('svc.secret')), null);

  t.false(app.output().includes(secret), 'the secret is not in the output');
  t.false(app.output().includes(code), 'the code is not in the output');
});

test('closing the window stops svc app and removes server.json', async (t) => {
  const home = freshHome();
  const app = await spawnApp(home);
  t.teardown(() => { if (!t.passed) t.log(app.output()); app.end(); });
  t.true(existsSync(recordPath(home)));
  const { browser, page } = await connectWindow(home);
  // a window closed before the app connected looks like a hand-over to a running browser
  await untilAppConnected(page);
  await closeWindow(browser);
  t.is(await app.exited, 0);
  t.false(existsSync(recordPath(home)));
  t.regex(app.output(), /stopping: the window closed/);
  await t.throwsAsync(fetch(`${app.url}/api/health`));
});

test('a window closed before the app connected stops svc app too, without waiting for a stream', async (t) => {
  const home = freshHome();
  // a first wait far longer than the test may take: only the window's end can stop svc app here
  const app = await spawnApp(home, { SVC_APP_FIRST_SECONDS: '3600' });
  t.teardown(() => { if (!t.passed) t.log(app.output()); app.end(); });
  const { browser } = await connectWindow(home);
  await closeWindow(browser);
  t.is(await app.exited, 0);
  t.false(existsSync(recordPath(home)));
  // the app may have connected before the close or not: either way it is the window closing
  t.regex(app.output(), /stopping: the window closed/);
  t.false(app.output().includes('handed the window'));
});

for (const [signal, why] of [['SIGTERM', 'terminated'], ['SIGINT', 'interrupted']] as const) test(`${signal} stops svc app, closes its window and removes server.json`, async (t) => {
  const home = freshHome();
  const app = await spawnApp(home);
  t.teardown(() => { app.end(); });
  await connectWindow(home);
  t.true(windowProcesses(home).length > 0);
  app.child.kill(signal);
  t.is(await app.exited, 0);
  t.false(existsSync(recordPath(home)));
  t.true(app.output().includes(`stopping: ${why}`));
  // the window went with it: nothing is left running on its profile
  await eventually(() => windowProcesses(home).length, (n) => n === 0);
});

// svc app cannot close its window when it is killed outright; the test's process group ends both
// (spec/helpers/process-groups.ts), so no headless Chromium outlives the suite.
test('a svc app ended with SIGKILL leaves no window running: the process group ends with it', async (t) => {
  const home = freshHome();
  const app = await spawnApp(home);
  t.teardown(() => { app.end(); });
  const { browser } = await connectWindow(home);
  t.teardown(() => browser.close());
  t.true(windowProcesses(home).length > 0);
  app.end();
  t.is(await app.exited, null);
  await eventually(() => windowProcesses(home).length, (n) => n === 0);
});
