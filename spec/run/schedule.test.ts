import test from 'ava';
import { UNKNOWN_SECONDS, besideNetwork, drivesBrowser, fromProbe, lanesOf, longestFirst, networkFiles, timesFromLog } from './schedule.js';

// The order `npm test` gives ava: longest first by the last recorded run, new files early.

const FILES = new Set(['spec/http/controls.test.ts', 'spec/web/theme.test.ts', 'spec/cli/cli.test.ts']);
const isFile = (p: string): boolean => FILES.has(p);

test('a file\'s time is its slowest passed test and a quarter of the rest; a title holding › still finds its file', (t) => {
  const log = [
    '  ✔ http › controls › Pause then Resume (4.2s)',
    '  ✔ http › controls › Retry (2s)',
    '  ✔ http › controls › fast',
    '  ✘ [fail]: cli › cli › doctor says why (1m)',
    '  ✔ web › theme › Settings › follows the system (500ms)',
    '  ✔ nowhere › made up (9s)',
    'web-dist: 45 files',
  ].join('\n');
  t.deepEqual(timesFromLog(log, isFile), { 'spec/http/controls.test.ts': 4.7, 'spec/web/theme.test.ts': 0.5 });
});

test('longest first; a file not timed yet counts as slow; ties keep name order', (t) => {
  const times = { 'spec/a.test.ts': 1, 'spec/b.test.ts': 90, 'spec/c.test.ts': 1, 'spec/d.test.ts': UNKNOWN_SECONDS - 1 };
  t.deepEqual(longestFirst(['spec/a.test.ts', 'spec/c.test.ts', 'spec/d.test.ts', 'spec/new.test.ts', 'spec/b.test.ts'], times),
    ['spec/b.test.ts', 'spec/new.test.ts', 'spec/d.test.ts', 'spec/a.test.ts', 'spec/c.test.ts']);
});

test('lanes: a file whose CPU was under 30% of a life of 20 s or more waits; unmeasured files, short ones and browser files are busy; each lane longest first', (t) => {
  const times = { 'spec/a.test.ts': 60, 'spec/b.test.ts': 40, 'spec/c.test.ts': 30, 'spec/d.test.ts': 10, 'spec/e.test.ts': 25, 'spec/web/f.test.ts': 50 };
  const cpu = { 'spec/a.test.ts': 9, 'spec/b.test.ts': 40, 'spec/c.test.ts': 5.9, 'spec/d.test.ts': 1, 'spec/e.test.ts': 7.5, 'spec/web/f.test.ts': 2 };
  const browser = (f: string) => f.startsWith('spec/web/');
  t.deepEqual(lanesOf(['spec/d.test.ts', 'spec/c.test.ts', 'spec/b.test.ts', 'spec/a.test.ts', 'spec/new.test.ts', 'spec/e.test.ts', 'spec/web/f.test.ts'], times, cpu, browser), {
    busy: ['spec/web/f.test.ts', 'spec/b.test.ts', 'spec/e.test.ts', 'spec/new.test.ts', 'spec/d.test.ts'],
    waiting: ['spec/a.test.ts', 'spec/c.test.ts'],
  });
});

test('beside the network files: measured files the longest first that fit about their time two at a time, none over half of it', (t) => {
  const times = { 'spec/n1.test.ts': 100, 'spec/n2.test.ts': 60, 'spec/n3.test.ts': 40, 'spec/a.test.ts': 70, 'spec/b.test.ts': 50, 'spec/c.test.ts': 45, 'spec/d.test.ts': 10, 'spec/e.test.ts': 4 };
  // the network files take max(100, 200 / 2) = 100 s: b (50) and c (45) fit, a (70) is over half, d no longer fits after them
  t.deepEqual(besideNetwork(['spec/a.test.ts', 'spec/b.test.ts', 'spec/c.test.ts', 'spec/d.test.ts', 'spec/e.test.ts', 'spec/new.test.ts'], ['spec/n1.test.ts', 'spec/n2.test.ts', 'spec/n3.test.ts'], times),
    ['spec/b.test.ts', 'spec/c.test.ts', 'spec/e.test.ts']);
  t.deepEqual(besideNetwork(['spec/a.test.ts'], [], times), [], 'no network files: nothing kept back');
});

test('a file drives a browser when it is an app or app-window test, opens the app, or names a browser', (t) => {
  t.true(drivesBrowser('spec/web/x.test.ts', ''));
  t.true(drivesBrowser('spec/app-window/x.test.ts', ''));
  t.true(drivesBrowser('spec/workers/x.test.ts', 'const app = await openApp(t, o);'));
  t.true(drivesBrowser('spec/x/y.test.ts', "import { chromium } from 'playwright-core';"));
  t.false(drivesBrowser('spec/engine/x.test.ts', 'const s = await testServer();'));
});

test('the probe\'s lines give each spec file\'s life and CPU; lines of other processes and broken lines are left out', (t) => {
  const text = [
    '/x/dist/suite-spec/spec/http/controls.test.mjs\t25.1\t5.4',
    '/x/dist/core-spec/spec/commands/fork.test.ts\t7.0\t4.4',
    '/x/dist/suite-spec/spec/web/theme.test.mjs\t63.2',
    '/x/dist/suite-spec/spec/web/shell.test.mjs\t35.7\tabc',
    '',
  ].join('\n');
  t.deepEqual(fromProbe(text), { times: { 'spec/http/controls.test.ts': 25.1 }, cpu: { 'spec/http/controls.test.ts': 5.4 } });
});

test('files that add a veth or a network namespace are found, and those of them that drive a browser', (t) => {
  const sources: Record<string, string> = {
    'spec/a.test.ts': "import { makeMachines } from '../helpers/worker-netns.js';",
    'spec/b.test.ts': "ip('link', 'add', IF, 'type', 'veth', 'peer', 'name', PEER);",
    'spec/c.test.ts': "const app = await openApp(t, { viewport });",
    'spec/d.test.ts': "ip netns add x; const app = await openApp(t, o);",
    'spec/run/e.test.ts': "'ip netns add x' is a sample here",
  };
  t.deepEqual(networkFiles(Object.keys(sources), (f) => sources[f]!), { plain: ['spec/a.test.ts', 'spec/b.test.ts'], browser: ['spec/d.test.ts'] });
});
