import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase, type RootDatabaseOptionsWithPath, type Database, type Key } from 'lmdb';

// One LMDB environment for the whole service, named sub-databases inside it.
// Sub-databases: events (journal), log (agent/service lines), state (snapshots), and any a module
// opens by name (e.g. 'workflows' for custom workflows).

export interface Store {
  readonly root: RootDatabase;
  db<V = unknown>(name: string): Database<V, Key>;
  close(): Promise<void>;
}

// lmdb-js hands `permissionsMode` to mdb_env_open (src/env.cpp; default 0664, so 0644 under the
// usual umask) but its typings leave it out. Passing it creates data.mdb and lock.mdb owner-only
// from their first byte; the chmod then tightens files an older version left group-readable.
const OWNER_ONLY = 0o600;
const OWNER_ONLY_DIR = 0o700;
type StoreOptions = RootDatabaseOptionsWithPath & { readonly permissionsMode: number };

export const openStore = (path: string): Store => {
  // owner-only, like every folder svc makes (lib/paths.ts ensurePrivateDir; journal/ takes nothing from lib/)
  mkdirSync(path, { recursive: true, mode: OWNER_ONLY_DIR });
  chmodSync(path, OWNER_ONLY_DIR);
  const options: StoreOptions = { path, maxDbs: 64, compression: false, mapSize: 2 * 1024 ** 3, eventTurnBatching: true, permissionsMode: OWNER_ONLY };
  const root = open(options);
  for (const file of ['data.mdb', 'lock.mdb']) if (existsSync(join(path, file))) chmodSync(join(path, file), OWNER_ONLY);
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
