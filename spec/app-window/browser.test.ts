import '../helpers/env.js';
import test from 'ava';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BrowserError, extraArgs, findBrowser, profileDir, profileHeldByAnother } from '../../lib/app/browser.js';
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

test('the profile is held by another browser only when its SingletonLock names a live process that is not ours', (t) => {
  const home = tempDir('svc-lock-');
  mkdirSync(profileDir(home), { recursive: true });
  const lock = join(profileDir(home), 'SingletonLock');
  t.false(profileHeldByAnother(home, 1234), 'no lock');
  symlinkSync(`${hostname()}-${process.pid}`, lock);
  t.true(profileHeldByAnother(home, 1234), 'a live process that is not our window');
  t.false(profileHeldByAnother(home, process.pid), 'our own window');
  rmSync(lock);
  symlinkSync(`${hostname()}-2147483646`, lock);
  t.false(profileHeldByAnother(home, 1234), 'a lock left by a process that is gone');
  rmSync(lock);
  symlinkSync('garbage', lock);
  t.false(profileHeldByAnother(home, 1234), 'a lock that names no pid');
});
