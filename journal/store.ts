import { open, type RootDatabase, type Database, type Key } from 'lmdb';
import { ensurePrivateDir } from '../lib/paths.js';

// One LMDB environment for the whole service, named sub-databases inside it.
// Sub-databases: events (journal), log (agent/service lines), state (snapshots), and any a module
// opens by name (e.g. 'workflows' for custom workflows).

export interface Store {
  readonly root: RootDatabase;
  db<V = unknown>(name: string): Database<V, Key>;
  close(): Promise<void>;
}

export const openStore = (path: string): Store => {
  ensurePrivateDir(path);
  const root = open({ path, maxDbs: 64, compression: false, mapSize: 2 * 1024 ** 3, eventTurnBatching: true });
  const dbs = new Map<string, Database<unknown, Key>>();
  return {
    root,
    db<V>(name: string): Database<V, Key> {
      let d = dbs.get(name);
      if (!d) {
        d = root.openDB({ name });
        dbs.set(name, d);
      }
      return d as Database<V, Key>;
    },
    close: () => root.close(),
  };
};
