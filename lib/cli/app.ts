import type { ChildProcess } from 'node:child_process';
import { appCodes } from '../auth/app-codes.js';
import { BrowserError, extraArgs, findBrowser, openWindow, profileHeldByAnother } from '../app/browser.js';
import { windowWatch } from '../app/window-watch.js';
import { newToken } from '../ids.js';
import { CliError } from './client.js';
import { startServer } from './serve.js';

// `svc app`: a server owned by a window (spec, Authentication). A fresh secret goes into
// server.json, every /api request must carry it, and the window gets it through a one-time code.
// The server lives as long as the window: closing it, or ending `svc app`, stops the server and
// removes the record.

export interface AppCommandOptions {
  readonly home: string;
  readonly port: number;
  readonly env: NodeJS.ProcessEnv;
  readonly out: (s: string) => void;
}

const seconds = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(raw)) throw new CliError(`${name} takes a number of seconds`);
  return Number(raw) * 1000;
};

/** resolves with the exit code once the window is gone or a signal came, and the server has stopped */
export const appCommand = async (o: AppCommandOptions): Promise<number> => {
  let browser;
  try {
    browser = findBrowser(o.env);
  } catch (err) {
    if (err instanceof BrowserError) throw new CliError(err.message);
    throw err;
  }
  // A stop asked for before the server is up (a very short first wait) is kept and honoured then.
  let early: string | null = null;
  let finish: (why: string) => void = (why) => { early ??= why; };
  const times = { graceMs: seconds(o.env, 'SVC_APP_GRACE_SECONDS', 30_000), firstMs: seconds(o.env, 'SVC_APP_FIRST_SECONDS', 120_000) };
  let windowPid: number | undefined;
  const watch = windowWatch(browser.kind, times, (why) => finish(why), (what) => o.out(`svc app: ${what}\n`), () => profileHeldByAnother(o.home, windowPid));
  const codes = appCodes();
  const s = await startServer({ home: o.home, port: o.port, bind: '127.0.0.1', secret: newToken(), codes, streams: watch }).catch((err: NodeJS.ErrnoException) => {
    watch.dispose();
    throw err.code === 'EADDRINUSE' ? new CliError(`port ${o.port} is in use; \`svc app --port 0\` picks a free one`) : err;
  });
  o.out(`svc app serving at ${s.baseUrl}\n`);
  // The code goes in the fragment: browsers never send it, so it reaches no request log.
  const window: ChildProcess = openWindow(browser, `${s.baseUrl}#code=${encodeURIComponent(codes.issue())}`, o.home, extraArgs(o.env));
  windowPid = window.pid;
  return new Promise<number>((resolve) => {
    let done = false;
    finish = (why) => {
      if (done) return;
      done = true;
      watch.dispose();
      o.out(`svc app stopping: ${why}\n`);
      if (browser.kind === 'app' && window.exitCode === null && window.signalCode === null) window.kill('SIGTERM');
      void s.close().then(() => resolve(0));
    };
    if (browser.kind === 'app') {
      window.once('exit', (code) => watch.browserExited(code));
      window.once('error', (err) => finish(`the window could not be opened: ${err.message}`));
    }
    process.once('SIGINT', () => finish('interrupted'));
    process.once('SIGTERM', () => finish('terminated'));
    if (early) finish(early);
  });
};
