import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

// Which Chromium the browser tests drive, and what `npm test` does when there is none. The browser
// tests use Debian's Chromium (never a downloaded browser), which a fresh machine may lack: the
// decision is pure over a probe of the machine, so spec can try every branch without installing.

/** What the machine looks like, as far as finding Chromium goes. */
export interface Probe {
  /** CHROME_PATH, when the user names a browser */
  readonly chromePath: string | undefined;
  /** SVC_SHARED_CHROMIUM, when the user names the run's shared browser alone (sharedBrowserPath) */
  readonly sharedChromium: string | undefined;
  /** the PATH to search for `chromium` */
  readonly path: string;
  readonly isRoot: boolean;
  /** apt-get can install Debian's `chromium` package here */
  readonly isDebian: boolean;
  readonly isExecutable: (file: string) => boolean;
}

export type Plan =
  | { readonly _tag: 'Found'; readonly path: string }
  | { readonly _tag: 'Install'; readonly commands: readonly (readonly string[])[] }
  | { readonly _tag: 'Missing'; readonly advice: string };

/** Where Debian's package puts it; checked before PATH, as CI's PATH can be minimal. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's chromium-headless-shell: Chromium's old headless shell, the same Blink without the full
 * browser's layers, which Playwright itself runs for headless. On spec/web's files its process tree
 * used about half the CPU of `chromium --headless`'s (271 s against 548 s), on a suite that is
 * CPU-bound: its browser process does less, and it starts a sixth as many renderer processes.
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Chromium's switches for the tests, the full browser's and the headless shell's alike (the shell is
 * headless by nature, and `--headless` is harmless to it): off the network (this machine has none
 * but loopback), no sandbox in a container.
 */
export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const INSTALL: readonly (readonly string[])[] = [['apt-get', 'update'], ['apt-get', 'install', '-y', 'chromium']];

/** CHROME_PATH when set (and only it: a named browser that is missing is a mistake to report, not to paper over), else Debian's, else PATH. */
export const findChromium = (p: Probe): string | undefined => {
  if (p.chromePath) return p.isExecutable(p.chromePath) ? p.chromePath : undefined;
  if (p.isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return p.path.split(delimiter).filter(Boolean).map((dir) => join(dir, 'chromium')).find(p.isExecutable);
};

export const plan = (p: Probe): Plan => {
  const found = findChromium(p);
  if (found) return { _tag: 'Found', path: found };
  if (p.chromePath) return { _tag: 'Missing', advice: `CHROME_PATH is ${p.chromePath}, which is not an executable file. Point it at Chromium, or unset it to use Debian's (sudo apt-get install -y chromium).` };
  if (p.isDebian && p.isRoot) return { _tag: 'Install', commands: INSTALL };
  if (p.isDebian) return { _tag: 'Missing', advice: 'The browser tests need Debian\'s Chromium, which is not installed. Run:\n\n  sudo apt-get install -y chromium\n\nthen `npm test` again.' };
  return { _tag: 'Missing', advice: 'The browser tests need Chromium, which was not found (not at /usr/bin/chromium nor on PATH). Install it, or set CHROME_PATH to its executable, then `npm test` again.' };
};

/**
 * The executable of the run's one shared browser (spec/run/main.ts, spec/web/browser.ts), which
 * every browser test file drives: SVC_SHARED_CHROMIUM when set (undefined when it names no
 * executable, a mistake to report), else `chromium` (findChromium's) when CHROME_PATH names the
 * browser, else Debian's headless shell when installed, else `chromium`. SVC_CHROMIUM stays the
 * full browser: `svc app`'s tests open a real --app window in it (spec/helpers/app-window.ts).
 */
export const sharedBrowserPath = (p: Probe, chromium: string): string | undefined => {
  if (p.sharedChromium) return p.isExecutable(p.sharedChromium) ? p.sharedChromium : undefined;
  if (p.chromePath) return chromium;
  return p.isExecutable(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : chromium;
};

const executable = (file: string): boolean => {
  try { accessSync(file, constants.X_OK); return true; } catch { return false; }
};

export const machineProbe = (env: NodeJS.ProcessEnv = process.env): Probe => ({
  chromePath: env['CHROME_PATH'] || undefined,
  sharedChromium: env['SVC_SHARED_CHROMIUM'] || undefined,
  path: env['PATH'] ?? '',
  isRoot: process.getuid?.() === 0,
  isDebian: existsSync('/etc/debian_version'),
  isExecutable: executable,
});
