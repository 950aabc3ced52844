// A supervisor's turns run in a scratch folder of its own, <home>/supervisors/<id>: never a run's
// worktree, owner-only, and the same folder every turn (claude files its sessions per folder, so
// resuming needs it). It is not a git repository: codex gets --skip-git-repo-check from its args.
import { join } from 'node:path';
import { ensurePrivateDir } from '../../paths.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,80}$/;

export const scratchDir = (home: string, supervisorId: string): string => {
  // ids are ours, but a folder name built from one must never climb out of supervisors/
  if (!SAFE_ID.test(supervisorId)) throw new Error(`not a supervisor id: ${JSON.stringify(supervisorId)}`);
  ensurePrivateDir(join(home, 'supervisors'));
  return ensurePrivateDir(join(home, 'supervisors', supervisorId));
};
