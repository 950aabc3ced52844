import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { profileDir } from '../../lib/app/browser.js';
import { CHROMIUM } from './browser.js';
import { CLI } from './cli.js';
import { eventually, repoRoot, writtenLine } from './env.js';
import { endGroup, spawnGroup } from './process-groups.js';

// The real `svc app` in a child process, its window the real Debian Chromium made headless through
// SVC_BROWSER_ARGS with a DevTools port, which the test reaches with playwright's connectOverCDP.
// svc app and its window run in a process group of their own (process-groups.ts): `end()` ends both,
// and the test file's after.always hook ends any group a test left.

export const HEADLESS_ARGS = '--headless --no-sandbox --disable-gpu --disable-quic --disable-background-networking --disable-component-update --disable-sync --remote-debugging-port=0';

export interface AppProcess {
  /** the origin, no trailing `/` */
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  /** ends svc app and its window at once (SIGKILL to the process group) */
  end(): void;
}

export const spawnApp = (home: string, env: Record<string, string> = {}): Promise<AppProcess> =>
  new Promise((resolve, reject) => {
    const child = spawnGroup(process.execPath, [...CLI, 'app', '--port', '0'], {
      cwd: repoRoot,
      env: { ...process.env, SVC_HOME: home, SVC_BROWSER: CHROMIUM, SVC_BROWSER_ARGS: HEADLESS_ARGS, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => { endGroup(child); reject(new Error(`svc app did not start: ${out}`)); }, 120_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /serving at (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ url: m[1]!.replace(/\/$/, ''), child, exited, output: () => out, end: () => endGroup(child) }); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`svc app exited with ${code}: ${out}`)); });
  });

/** Chromium writes the port it picked for --remote-debugging-port=0 into its profile */
const devtoolsPort = (home: string): Promise<number> =>
  eventually(() => {
    // its first line is the port; until the newline after it is written, it may be cut short
    const port = writtenLine(join(profileDir(home), 'DevToolsActivePort'));
    return port === '' ? 0 : Number(port);
  }, (p) => p > 0, 90_000);

export const connectWindow = async (home: string): Promise<{ browser: Browser; page: Page }> => {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${await devtoolsPort(home)}`);
  const page = await eventually(() => browser.contexts()[0]?.pages()[0], (p) => p !== undefined, 90_000);
  return { browser, page: page! };
};

/** what a person closing the window does: the browser process ends */
export const closeWindow = async (browser: Browser): Promise<void> => {
  const cdp = await browser.newBrowserCDPSession();
  await cdp.send('Browser.close').catch(() => undefined); // the connection may drop before the answer
};

/**
 * Until the app in the window has its push stream open, which is how `svc app` knows a window is
 * there: the app has signed in (the secret is in its session), then a reload shows the stream open.
 */
export const untilAppConnected = async (page: Page): Promise<void> => {
  await eventually(() => page.evaluate(() => sessionStorage.getItem('svc.secret')), (v) => v !== null, 90_000);
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events', { timeout: 90_000 });
  await page.reload();
  await stream;
};
