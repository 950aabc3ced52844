import '../helpers/env.js';
import type { ExecutionContext } from 'ava';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.js';
import { CHROMIUM_ARGS, findChromium, machineProbe, sharedBrowserPath } from '../run/chromium.js';
import { testServer, type TestServer } from '../helpers/server.js';

// Browser tests of the app: Debian's Chromium (its headless shell when installed, as
// spec/run/chromium.ts sharedBrowserPath decides; else SVC_CHROMIUM from `npm test`, else
// CHROME_PATH, else /usr/bin/chromium) driven by playwright-core against a real server on an ephemeral port,
// with its own SVC_HOME/HOME and the scripted harness (spec/helpers/env.ts), so runs really move.
//
//   import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
//   test.after.always(closeBrowser);
//   for (const viewport of VIEWPORTS) test(`… (${viewport.name})`, async (t) => {
//     const app = await openApp(t, { viewport });         // or { viewport, server } to share one
//     await app.goto('/projects');
//     await app.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
//     await app.axe(t);                                    // fails the test on any violation
//     app.noErrors(t);                                     // no uncaught error, no console error
//   });

export interface Viewport { readonly name: string; readonly width: number; readonly height: number }

export const DESKTOP: Viewport = { name: 'desktop 1280x800', width: 1280, height: 800 };
export const PHONE: Viewport = { name: 'phone 390x844', width: 390, height: 844 };
export const VIEWPORTS: readonly Viewport[] = [DESKTOP, PHONE];

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export const chromiumPath = (): string => process.env['SVC_CHROMIUM'] ?? findChromium(machineProbe()) ?? '/usr/bin/chromium';

/** the browser a file launches when run straight with ava: the one `npm test` would share, so both drive the same */
const sharedPath = (): string => {
  const path = sharedBrowserPath(machineProbe(), chromiumPath());
  if (!path) throw new Error(`SVC_SHARED_CHROMIUM is ${process.env['SVC_SHARED_CHROMIUM']}, which is not an executable file`);
  return path;
};

let built: Promise<unknown> | null = null;
/**
 * Builds web-dist from lib/web once per test process, so a test always drives the current source;
 * under `npm test`, which built it just before ava started (spec/run/main.ts says so in
 * SVC_WEB_DIST_BUILT), the 50-odd browser test files do not each build it again.
 */
export const webBuilt = (): Promise<unknown> => (built ??= process.env['SVC_WEB_DIST_BUILT'] === '1' ? Promise.resolve() : buildWeb());

let browser: Promise<Browser> | null = null;
/**
 * One Chromium per test file, or under `npm test` one for the whole run (spec/run/main.ts names
 * its endpoint in SVC_SPEC_BROWSER_WS: a launch costs about a second of CPU, and 60-odd files
 * each made one); each app session gets its own context (cookies, storage) either way.
 */
export const sharedBrowser = (): Promise<Browser> => {
  const endpoint = process.env['SVC_SPEC_BROWSER_WS'];
  return (browser ??= endpoint ? chromium.connect(endpoint) : chromium.launch({ executablePath: sharedPath(), args: [...CHROMIUM_ARGS] }));
};

let full: Promise<Browser> | null = null;
/**
 * The full chromium (SVC_CHROMIUM's), for a test that needs what the headless shell lacks: the shell
 * has no notification service, so Notification.permission stays 'denied' whatever a context grants.
 * Launched once by a file that asks; the shared browser itself when that is the full chromium.
 */
export const fullBrowser = (): Promise<Browser> => {
  if (sharedPath() === chromiumPath()) return sharedBrowser();
  return (full ??= chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] }));
};

/** this file's browsers closed, or the run's left: its contexts are closed and this file lets go of it */
export const closeBrowser = async (): Promise<void> => {
  const [b, f] = [browser, full];
  browser = null;
  full = null;
  if (b) await (await b).close();
  if (f) await (await f).close();
};

export interface AppSession {
  readonly server: TestServer;
  readonly context: BrowserContext;
  readonly page: Page;
  /** uncaught page errors and console errors, as they happened */
  readonly errors: string[];
  /** opens an app path (`/`, `/runs/<id>`) and waits for the shell */
  goto(path: string): Promise<void>;
  /** runs axe-core on the page as it is now; any violation fails the test, listed */
  axe(t: ExecutionContext, label?: string): Promise<void>;
  noErrors(t: ExecutionContext): void;
}

export interface AppOptions {
  readonly viewport: Viewport;
  /** a server to share between tests; otherwise a fresh one, closed at the end of the test */
  readonly server?: TestServer;
  readonly workflows?: Record<string, string>;
  /** what `svc app` would leave in sessionStorage: the app sends it as a Bearer header */
  readonly secret?: string;
  /** the system's colour scheme the page sees (prefers-color-scheme); Playwright's default is light */
  readonly colorScheme?: 'light' | 'dark';
  /** the browser's time zone (an IANA name); otherwise the machine's */
  readonly timezoneId?: string;
  /** a touch screen, as a phone has: `locator.tap()` then works */
  readonly hasTouch?: boolean;
  /** in the full chromium (fullBrowser), not the shared headless shell: for real notifications */
  readonly fullChromium?: boolean;
}

export const openApp = async (t: ExecutionContext, o: AppOptions): Promise<AppSession> => {
  await webBuilt();
  const server = o.server ?? await testServer({ ...(o.workflows ? { workflows: o.workflows } : {}) });
  if (!o.server) t.teardown(() => server.close());
  const context = await (await (o.fullChromium ? fullBrowser() : sharedBrowser())).newContext({ viewport: { width: o.viewport.width, height: o.viewport.height }, baseURL: server.url, colorScheme: o.colorScheme ?? 'light', hasTouch: o.hasTouch ?? false, ...(o.timezoneId ? { timezoneId: o.timezoneId } : {}) });
  t.teardown(() => context.close());
  if (o.secret) await context.addInitScript((secret) => sessionStorage.setItem('svc.secret', secret), o.secret);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  // A refusal (4xx) the page shows is not a fault of the page; Chromium still logs it to the console.
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(`console: ${m.text()}`); });
  return {
    server, context, page, errors,
    goto: async (path) => {
      await page.goto(path);
      await page.locator('header.banner nav').waitFor();
    },
    axe: async (tt, label) => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
      const found = await page.evaluate(async () => {
        const r = await (window as unknown as { axe: { run(c: Document, o: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } })
          .axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      tt.deepEqual(found, [], `axe ${label ?? ''} at ${page.url()} (${o.viewport.name})`);
    },
    noErrors: (tt) => tt.deepEqual(errors, [], `errors in the page (${o.viewport.name})`),
  };
};
