import { homedir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, chmodSync } from 'node:fs';

// Every file the service writes lives under one home, owner-only. SVC_HOME overrides it
// (tests always set it to a temp folder).
export const svcHome = (): string => process.env.SVC_HOME ?? join(homedir(), '.svc');

export const homePath = (...parts: string[]): string => join(svcHome(), ...parts);

// mkdir -p with mode 0700 on every folder we create, and a chmod for folders that existed
// with looser bits (umask would otherwise leave them group-readable).
export const ensurePrivateDir = (dir: string): string => {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
};
