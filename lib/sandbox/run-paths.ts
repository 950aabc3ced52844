// What a run's checkout needs writable for the agent to work and commit in it. A folder with its
// own .git (a clone) needs nothing else. A linked worktree (runs' checkouts today) also needs its
// admin folder in the user's repository (<repo>/.git/worktrees/<name>: index, HEAD) and the common
// folder's objects, refs and reflogs, so a commit can land; the rest of the common folder (config,
// hooks, packed-refs) is read-only. Those shared refs are the interim's hole: an agent can move
// the user's branches through them. A per-run clone closes it (docs/sandbox.md).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Bind } from './profile.js';

const gitdirOf = (dir: string): string | undefined => {
  const dotGit = join(dir, '.git');
  if (!existsSync(dotGit) || statSync(dotGit).isDirectory()) return undefined;
  const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!m) return undefined;
  const p = m[1]!.trim();
  return isAbsolute(p) ? p : resolve(dir, p);
};

const commonDirOf = (admin: string): string | undefined => {
  const file = join(admin, 'commondir');
  if (!existsSync(file)) return undefined;
  const p = readFileSync(file, 'utf8').trim();
  return isAbsolute(p) ? p : resolve(admin, p);
};

export const checkoutBinds = (dir: string, writable: boolean): Bind[] => {
  const own: Bind = { path: dir, writable };
  const admin = gitdirOf(dir);
  if (!admin) return [own];
  const common = commonDirOf(admin);
  const shared = common ? [{ path: common, writable: false }, ...['objects', 'refs', 'logs'].map((d) => join(common, d)).filter((p) => existsSync(p)).map((path) => ({ path, writable }))] : [];
  return [own, { path: admin, writable }, ...shared];
};
