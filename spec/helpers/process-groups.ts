import test from 'ava';
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

// Programs a test starts (svc app and its browser window, svc serve, the CLI) run in a process group
// of their own, so one signal to the group ends them and everything they started, even when the
// program itself was killed first: a `svc app` ended with SIGKILL cannot close its window, and its
// Chromium would otherwise outlive the suite. Importing this module registers the hook that ends every
// group the test file started once its tests are done, passed or failed.

const groups = new Set<number>();

/** spawn in a new process group that this test file ends when its tests are done */
export const spawnGroup = (command: string, args: readonly string[], options: SpawnOptions): ChildProcess => {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  return child;
};

/** SIGKILL to the whole group: the program and whatever it started that is still in the group */
export const endGroup = (child: ChildProcess): void => {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is empty already
  }
};

const endAll = (): void => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // empty already
    }
  }
  groups.clear();
};

test.after.always('end the process groups this file started', endAll);
