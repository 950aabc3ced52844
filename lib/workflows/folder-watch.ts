import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

// Watches the folders workflows and personas are read from, so an edit on disk is seen without a
// restart. The folders may not exist yet (a project without `.svc/`), and chokidar does not notice
// a missing path being created, so we watch the nearest existing ancestor and ignore everything
// that is neither on the way down to a target folder nor inside one.
//
// Readers may cache what they read under a group only once its watcher is ready: until then a
// change could slip past unseen, so they read from disk each time.

export interface FolderWatch {
  /** start watching these folders (once per group key); answers whether the watcher is ready */
  ensure(group: string, base: string, targets: readonly string[]): boolean;
  close(): Promise<void>;
}

const nearestExisting = (path: string): string => {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
};

const within = (parent: string, path: string): boolean => path === parent || path.startsWith(parent.endsWith(sep) ? parent : parent + sep);

const relevant = (targets: readonly string[], root: string) => (path: string): boolean =>
  path === root || targets.some((t) => within(t, path) || within(path, t));

export const createFolderWatch = (onChange: () => void): FolderWatch => {
  const watchers = new Map<string, { watcher: FSWatcher; ready: boolean }>();
  return {
    ensure(group, base, targets) {
      const found = watchers.get(group);
      if (found) return found.ready;
      const root = nearestExisting(base);
      const keep = relevant(targets.map((t) => join(t)), root);
      const watcher = watch(root, { ignoreInitial: true, ignored: (p: string) => !keep(p) });
      const entry = { watcher, ready: false };
      watchers.set(group, entry);
      watcher.on('ready', () => { entry.ready = true; onChange(); });
      watcher.on('all', () => onChange());
      // After a watcher error we cannot vouch for the cache: stop trusting it for this group.
      watcher.on('error', () => { entry.ready = false; onChange(); });
      return false;
    },
    async close() {
      const all = [...watchers.values()];
      watchers.clear();
      await Promise.all(all.map((w) => w.watcher.close()));
    },
  };
};
