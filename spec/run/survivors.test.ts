import '../helpers/env.js';
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, tempDir } from '../helpers/env.js';
import { SUITE_VARIABLE, belongsToSuite, endSurvivors, settledSurvivors, survivorReport, survivors } from './survivors.js';

// `npm test`'s last check: processes tied to the run's folder that outlive ava are found, reported
// and ended. Real processes (node, waiting) stand in for a leftover browser.

const started: ChildProcess[] = [];
const WAIT = ['-e', 'setTimeout(() => undefined, 600_000)', '--'];
const start = (args: string[], env: NodeJS.ProcessEnv): ChildProcess => {
  const child = spawn(process.execPath, [...WAIT, ...args], { env, stdio: 'ignore' });
  started.push(child);
  return child;
};
test.after.always(() => { for (const c of started) c.kill('SIGKILL'); });

const pids = (dir: string): number[] => survivors(dir).map((s) => s.pid);

test('a process that inherited the run\'s variable is a survivor, and ending it leaves none', async (t) => {
  const dir = tempDir('svc-suite-');
  const child = start([], { ...process.env, [SUITE_VARIABLE]: dir });
  await eventually(() => pids(dir), (p) => p.includes(child.pid!));
  endSurvivors(survivors(dir));
  t.deepEqual(await settledSurvivors(dir, 100, 50), []);
});

test('a process naming a folder inside the run\'s folder on its command line is a survivor (a browser profile)', async (t) => {
  const dir = tempDir('svc-suite-');
  const child = start([`--user-data-dir=${dir}/home/.svc/app-window`], { PATH: process.env['PATH'] });
  const found = await eventually(() => survivors(dir), (s) => s.some((x) => x.pid === child.pid));
  t.regex(survivorReport(found), /1 process\(es\) started by the tests were still running/);
  t.regex(survivorReport(found), /app-window/);
  endSurvivors(found);
  t.deepEqual(await settledSurvivors(dir, 100, 50), []);
});

test('a process working in a folder inside the run\'s folder is a survivor (an agent CLI in a worktree)', async (t) => {
  const dir = tempDir('svc-suite-');
  const worktree = join(dir, 'worktree');
  mkdirSync(worktree);
  const child = spawn(process.execPath, WAIT, { cwd: worktree, env: { PATH: process.env['PATH'] }, stdio: 'ignore' });
  started.push(child);
  await eventually(() => pids(dir), (p) => p.includes(child.pid!));
  endSurvivors(survivors(dir));
  t.deepEqual(await settledSurvivors(dir, 100, 50), []);
});

test('processes of another run, or of none, are not survivors of this one', async (t) => {
  const dir = tempDir('svc-suite-');
  const other = start([], { ...process.env, [SUITE_VARIABLE]: `${dir}-other` });
  await eventually(() => pids(`${dir}-other`), (p) => p.includes(other.pid!));
  t.deepEqual(survivors(dir), []);
  t.false(pids(dir).includes(process.pid));
});

test('the run\'s variable must match exactly', (t) => {
  t.true(belongsToSuite(`A=1\0${SUITE_VARIABLE}=/tmp/s\0`, 'node x', '/tmp/s'));
  t.false(belongsToSuite(`${SUITE_VARIABLE}=/tmp/s2\0`, 'node x', '/tmp/s'));
  t.true(belongsToSuite('', 'chromium\0--user-data-dir=/tmp/s/h/app-window', '/tmp/s'));
  t.true(belongsToSuite('', 'claude\0-p', '/tmp/s', '/tmp/s/h/.svc/worktrees/r1/app'));
  t.false(belongsToSuite('', 'claude\0-p', '/tmp/s', '/tmp/s2/worktree'));
});
