import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './env.js';

// The crash specs start from the same state in test after test (a project, a run ended, its work
// secured...), and making it takes a real `svc serve` and a whole run: most of their CPU. It is made
// once per file and kind, saved while no server runs, and put back before each test in the very
// folders it was made in (LMDB and git worktrees hold absolute paths), so every test still starts
// from that state alone, never from what an earlier test left.

/** folders copied whole (`cp -a`: modes, links, times) into a store of their own */
const save = (folders: readonly string[]): string => {
  const store = tempDir('svc-prepared-');
  folders.forEach((folder, i) => execFileSync('cp', ['-a', folder, join(store, String(i))]));
  return store;
};

/** each folder removed and copied back from the store, at the same absolute path */
const restore = (folders: readonly string[], store: string): void => {
  folders.forEach((folder, i) => {
    rmSync(folder, { recursive: true, force: true });
    execFileSync('cp', ['-a', join(store, String(i)), folder]);
  });
};

/**
 * `make` runs once (again after a failure), with no server left running when it is done; every call
 * gives its value with `folders(value)` restored to what they were then. Tests using it are serial.
 */
export const prepared = <T>(make: () => Promise<T>, folders: (value: T) => readonly string[]): (() => Promise<T>) => {
  let saved: Promise<{ value: T; store: string }> | undefined;
  return async () => {
    saved ??= make().then((value) => ({ value, store: save(folders(value)) }));
    const made = saved;
    const { value, store } = await made.catch((e: unknown) => { if (saved === made) saved = undefined; throw e; });
    restore(folders(value), store);
    return value;
  };
};
