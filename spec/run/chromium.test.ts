import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from '../helpers/env.js';
import { DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, INSTALL, findChromium, machineProbe, plan, sharedBrowserPath, type Probe } from './chromium.js';

// `npm test`'s entry: which Chromium it hands the browser tests, which one the run shares between
// them, and what it does on a machine without one. Probes describe machines; nothing is installed.

const machine = (o: Partial<Probe> & { files?: string[] }): Probe => ({
  chromePath: undefined, sharedChromium: undefined, path: '/usr/local/bin:/usr/bin:/bin', isRoot: false, isDebian: true,
  isExecutable: (f) => (o.files ?? []).includes(f), ...o,
});

test('Debian\'s chromium is found at /usr/bin/chromium, even when PATH lacks /usr/bin', (t) => {
  t.deepEqual(plan(machine({ path: '/nowhere', files: [DEBIAN_CHROMIUM] })), { _tag: 'Found', path: DEBIAN_CHROMIUM });
});

test('CHROME_PATH wins over Debian\'s chromium', (t) => {
  t.deepEqual(plan(machine({ chromePath: '/opt/c/chrome', files: ['/opt/c/chrome', DEBIAN_CHROMIUM] })), { _tag: 'Found', path: '/opt/c/chrome' });
});

test('a CHROME_PATH that names nothing is reported, not replaced by another browser, and nothing is installed', (t) => {
  const p = plan(machine({ chromePath: '/opt/c/chrome', isRoot: true, files: [DEBIAN_CHROMIUM] }));
  t.is(p._tag, 'Missing');
  t.regex(p._tag === 'Missing' ? p.advice : '', /CHROME_PATH is \/opt\/c\/chrome/);
});

test('chromium elsewhere on PATH is found in PATH order', (t) => {
  t.deepEqual(plan(machine({ path: '/a:/b:/c', files: ['/c/chromium', '/b/chromium'] })), { _tag: 'Found', path: '/b/chromium' });
});

test('missing, as root on Debian: installs Debian\'s chromium with apt-get', (t) => {
  const p = plan(machine({ path: '/nowhere', isRoot: true }));
  t.deepEqual(p, { _tag: 'Install', commands: INSTALL });
  t.deepEqual(INSTALL, [['apt-get', 'update'], ['apt-get', 'install', '-y', 'chromium']]);
});

test('missing, not root: says exactly what to run, and installs nothing', (t) => {
  const p = plan(machine({ path: '/nowhere', isRoot: false }));
  t.is(p._tag, 'Missing');
  t.true(p._tag === 'Missing' && p.advice.includes('sudo apt-get install -y chromium'));
});

test('missing, not Debian: asks for Chromium or CHROME_PATH instead of apt-get, even as root', (t) => {
  const p = plan(machine({ path: '/nowhere', isRoot: true, isDebian: false }));
  t.is(p._tag, 'Missing');
  t.true(p._tag === 'Missing' && p.advice.includes('CHROME_PATH') && !p.advice.includes('apt-get'));
});

test('the machine probe finds an executable chromium on PATH, and skips one that is not executable', (t) => {
  const a = tempDir('svc-path-a-'), b = tempDir('svc-path-b-');
  writeFileSync(join(a, 'chromium'), '#!/bin/sh\n');
  chmodSync(join(a, 'chromium'), 0o644);
  writeFileSync(join(b, 'chromium'), '#!/bin/sh\n');
  chmodSync(join(b, 'chromium'), 0o755);
  const real = machineProbe({ PATH: `${a}:${b}` });
  // This machine may have Debian's chromium; hide it to look at the PATH search alone.
  const probe = { ...real, isExecutable: (f: string) => f !== DEBIAN_CHROMIUM && real.isExecutable(f) };
  t.is(findChromium(probe), join(b, 'chromium'));
  t.is(machineProbe({ CHROME_PATH: '' }).chromePath, undefined);
});

test('the shared browser is Debian\'s headless shell when it is installed, while the browser tests\' chromium stays the full one', (t) => {
  const p = machine({ files: [DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL] });
  t.is(findChromium(p), DEBIAN_CHROMIUM);
  t.is(sharedBrowserPath(p, DEBIAN_CHROMIUM), DEBIAN_HEADLESS_SHELL);
});

test('without the headless shell, the shared browser is the chromium found as before', (t) => {
  t.is(sharedBrowserPath(machine({ files: [DEBIAN_CHROMIUM] }), DEBIAN_CHROMIUM), DEBIAN_CHROMIUM);
  t.is(sharedBrowserPath(machine({ path: '/a', files: ['/a/chromium'] }), '/a/chromium'), '/a/chromium');
});

test('a browser CHROME_PATH names is the shared one too, headless shell or not', (t) => {
  t.is(sharedBrowserPath(machine({ chromePath: '/opt/c/chrome', files: ['/opt/c/chrome', DEBIAN_HEADLESS_SHELL] }), '/opt/c/chrome'), '/opt/c/chrome');
});

test('SVC_SHARED_CHROMIUM names the shared browser alone, over CHROME_PATH and the headless shell; naming nothing is reported', (t) => {
  const files = ['/opt/c/chrome', DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL];
  t.is(sharedBrowserPath(machine({ sharedChromium: DEBIAN_CHROMIUM, chromePath: '/opt/c/chrome', files }), '/opt/c/chrome'), DEBIAN_CHROMIUM);
  t.is(sharedBrowserPath(machine({ sharedChromium: '/nowhere/chromium', files }), DEBIAN_CHROMIUM), undefined);
  t.is(machineProbe({ SVC_SHARED_CHROMIUM: '/x/chromium' }).sharedChromium, '/x/chromium');
  t.is(machineProbe({ SVC_SHARED_CHROMIUM: '' }).sharedChromium, undefined);
});

// npm test's entry with a browser variable naming no executable: it stops at once, saying which
for (const [variable, what] of [['SVC_SHARED_CHROMIUM', 'names no executable'], ['CHROME_PATH', 'has no Chromium, with the reason']] as const) {
  test(`npm test's entry stops before the type-check and ava when ${variable} ${what}`, (t) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'spec', 'run', 'main.ts')], {
      cwd: repoRoot, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, [variable]: join(tempDir(), 'no-chrome'), SVC_CHROMIUM: '' },
    });
    t.is(r.status, 1);
    t.regex(r.stderr, new RegExp(`npm test: ${variable} is .*no-chrome, which is not an executable file`));
    t.notRegex(r.stdout + r.stderr, /✔|passed|error TS/);
  });
}
