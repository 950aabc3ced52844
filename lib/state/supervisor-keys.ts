import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { secretsEqual } from '../auth/bearer.js';
import { newToken } from '../ids.js';
import { ensurePrivateDir } from '../paths.js';
import { writePrivateFile } from '../private-file.js';

// Supervisor keys: random, one owner-only file each under <home>/supervisor-keys (0700 folder,
// 0600 files), never in the journal (which records only that a key changed). Held in memory
// once read; a lookup compares in constant time.

const SAFE_ID = /^[A-Za-z0-9_-]{1,80}$/;

export class SupervisorKeys {
  private readonly keys = new Map<string, string>();
  private readonly dir: string;

  constructor(home: string) {
    this.dir = ensurePrivateDir(join(home, 'supervisor-keys'));
    for (const name of readdirSync(this.dir)) {
      if (!SAFE_ID.test(name)) continue;
      const key = readFileSync(join(this.dir, name), 'utf8').trim();
      if (key) this.keys.set(name, key);
    }
  }

  get(id: string): string | undefined {
    return this.keys.get(id);
  }

  /** a fresh key for the supervisor, replacing any earlier one */
  issue(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`not a supervisor id: ${JSON.stringify(id)}`);
    const key = newToken();
    writePrivateFile(join(this.dir, id), `${key}\n`);
    this.keys.set(id, key);
    return key;
  }

  /** the supervisor id a key belongs to */
  owner(candidate: string): string | undefined {
    for (const [id, key] of this.keys) if (secretsEqual(key, candidate)) return id;
    return undefined;
  }

  forget(id: string): void {
    this.keys.delete(id);
    rmSync(join(this.dir, id), { force: true });
  }
}
