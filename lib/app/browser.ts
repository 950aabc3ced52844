import { spawn, type ChildProcess } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { executable, findOnPath as onPath } from '../on-path.js';
import { ensurePrivateDir } from '../paths.js';

// Which window `svc app` opens: a Chromium-family browser in --app mode (a window of its own,
// no tabs or address bar, and a process we can watch), else the desktop's default browser.

export const CHROMIUM_NAMES: readonly string[] = ['chromium', 'google-chrome', 'chromium-browser'];

export type BrowserChoice =
  | { readonly kind: 'app'; readonly path: string }
  | { readonly kind: 'default'; readonly path: string };

export class BrowserError extends Error {}

/** SVC_BROWSER (a Chromium or Chrome, by path or name), then the usual names on PATH, then the default browser */
export const findBrowser = (env: NodeJS.ProcessEnv): BrowserChoice => {
  const PATH = env['PATH'] ?? '';
  const chosen = env['SVC_BROWSER']?.trim();
  if (chosen) {
    const path = chosen.includes('/') ? (executable(chosen) ? chosen : null) : onPath(chosen, PATH);
    if (!path) throw new BrowserError(`SVC_BROWSER=${chosen} is not an executable program`);
    return { kind: 'app', path };
  }
  for (const name of CHROMIUM_NAMES) {
    const path = onPath(name, PATH);
    if (path) return { kind: 'app', path };
  }
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const path = onPath(opener, PATH);
  if (!path) throw new BrowserError(`no Chromium or Chrome found and no ${opener} to open the default browser; set SVC_BROWSER`);
  return { kind: 'default', path };
};

/** extra browser arguments, split on spaces: for tests and automation (e.g. --headless --remote-debugging-port=0) */
export const extraArgs = (env: NodeJS.ProcessEnv): string[] => (env['SVC_BROWSER_ARGS'] ?? '').split(/\s+/).filter((a) => a.length > 0);

/** the browser profile `svc app` uses: its own, so the window is our child and not a tab handed to a running browser */
export const profileDir = (home: string): string => join(home, 'app-window');

// The window's output is not ours to log: Chromium may echo the URL, and the URL holds the code.
export const openWindow = (b: BrowserChoice, url: string, home: string, extra: readonly string[]): ChildProcess => {
  if (b.kind === 'default') {
    const child = spawn(b.path, [url], { stdio: 'ignore', detached: true });
    child.unref();
    return child;
  }
  const profile = profileDir(home);
  ensurePrivateDir(profile);
  const args = [`--app=${url}`, `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', ...extra];
  return spawn(b.path, args, { stdio: 'ignore' });
};

/**
 * Is the window's profile held by a Chromium other than `ownPid`? Chromium keeps the profile's
 * `SingletonLock` as a link to `<host>-<pid>` while it runs: a live pid there, not our own child,
 * is the browser our window was handed to. An absent lock, or one left by a process that is gone,
 * means nobody holds it.
 */
export const profileHeldByAnother = (home: string, ownPid: number | undefined): boolean => {
  let target: string;
  try {
    target = readlinkSync(join(profileDir(home), 'SingletonLock'));
  } catch {
    return false;
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === ownPid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};
