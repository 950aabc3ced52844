import '../helpers/env.js';
import test from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserError, extraArgs, findBrowser } from '../../lib/app/browser.js';
import { tempDir } from '../helpers/env.js';

// Which window `svc app` opens, on PATHs the test lays out with empty executables.

const binDir = (...names: string[]): string => {
  const dir = tempDir('svc-bin-');
  mkdirSync(dir, { recursive: true });
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\n');
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
};

test('SVC_BROWSER wins, by path or by name', (t) => {
  const dir = binDir('chromium', 'my-chrome');
  t.deepEqual(findBrowser({ PATH: dir, SVC_BROWSER: join(dir, 'my-chrome') }), { kind: 'app', path: join(dir, 'my-chrome') });
  t.deepEqual(findBrowser({ PATH: dir, SVC_BROWSER: 'my-chrome' }), { kind: 'app', path: join(dir, 'my-chrome') });
});

test('a SVC_BROWSER that is not an executable is an error, not a silent fallback', (t) => {
  const dir = binDir('chromium');
  t.throws(() => findBrowser({ PATH: dir, SVC_BROWSER: '/no/such/browser' }), { instanceOf: BrowserError, message: /SVC_BROWSER/ });
  t.throws(() => findBrowser({ PATH: dir, SVC_BROWSER: 'nosuch' }), { instanceOf: BrowserError });
});

test('chromium, then google-chrome, then chromium-browser on PATH, each in --app mode', (t) => {
  const a = binDir('chromium-browser', 'google-chrome');
  t.deepEqual(findBrowser({ PATH: a }), { kind: 'app', path: join(a, 'google-chrome') });
  const b = binDir('chromium-browser', 'xdg-open');
  t.deepEqual(findBrowser({ PATH: `/nonexistent:${b}` }), { kind: 'app', path: join(b, 'chromium-browser') });
  const c = binDir('google-chrome', 'chromium');
  t.deepEqual(findBrowser({ PATH: c }), { kind: 'app', path: join(c, 'chromium') });
});

test('without any Chromium the default browser opens the app; without that either, an error says what to set', (t) => {
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const d = binDir(opener);
  t.deepEqual(findBrowser({ PATH: d }), { kind: 'default', path: join(d, opener) });
  t.throws(() => findBrowser({ PATH: binDir() }), { instanceOf: BrowserError, message: /SVC_BROWSER/ });
});

test('SVC_BROWSER_ARGS are split on white space', (t) => {
  t.deepEqual(extraArgs({ SVC_BROWSER_ARGS: ' --headless  --remote-debugging-port=0\t--no-sandbox ' }), ['--headless', '--remote-debugging-port=0', '--no-sandbox']);
  t.deepEqual(extraArgs({}), []);
});
