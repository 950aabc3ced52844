// What a run's checkout needs writable for the agent to work and commit in it. A folder with its
// own .git (a clone) needs nothing else. A linked worktree (runs' checkouts today) also needs its
// admin folder in the user's repository (<repo>/.git/worktrees/<name>: index, HEAD) and the common
// folder's objects, refs and reflogs, so a commit can land; the rest of the common folder (config,
// hooks, packed-refs) is read-only. Those shared refs are the interim's hole: an agent can move
// the user's branches through them. A per-run clone closes it (docs/sandbox.md).
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
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

// A run's own repository: its .git bound onto itself (a mount point cannot be renamed or removed,
// so the agent cannot swap in a .git of its own), its config and hooks read-only over that. svc
// runs git there outside the sandbox: nothing the agent writes may make that git run a program
// (lib/git/git.ts runFolderGuard covers what is left). hooks/ is made first so it can be bound.
const ownRepoBinds = (dir: string, writable: boolean): Bind[] => {
  const dotGit = join(dir, '.git');
  if (!existsSync(dotGit) || !lstatSync(dotGit).isDirectory()) return [];
  if (writable) mkdirSync(join(dotGit, 'hooks'), { recursive: true, mode: 0o700 });
  const locked = [join(dotGit, 'config'), join(dotGit, 'hooks')].filter((p) => existsSync(p)).map((path) => ({ path, writable: false }));
  return [{ path: dotGit, writable }, ...locked];
};

export const checkoutBinds = (dir: string, writable: boolean): Bind[] => {
  const own: Bind = { path: dir, writable };
  const admin = gitdirOf(dir);
  if (!admin) return [own, ...ownRepoBinds(dir, writable)];
  const common = commonDirOf(admin);
  const shared = common ? [{ path: common, writable: false }, ...['objects', 'refs', 'logs'].map((d) => join(common, d)).filter((p) => existsSync(p)).map((path) => ({ path, writable }))] : [];
  return [own, { path: admin, writable }, ...shared];
};
