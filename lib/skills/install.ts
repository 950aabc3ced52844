import { chmodSync, cpSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { ensurePrivateDir } from '../paths.js';
import type { HarnessName } from '../../domain/workflow.js';
import { filesFor, type BundledSkill } from './bundle.js';
import { installedState } from './installed.js';

// Copies a bundled skill into a harness's skill folder. An untouched copy of any released version
// is replaced (that is an upgrade); a copy the user changed is replaced only with `force`, and then
// moved aside into the service home first, so their edits are never simply lost.

export interface InstallResult {
  readonly skill: string;
  readonly harness: HarnessName;
  readonly version: string;
  readonly folder: string;
  /** what was there before: nothing, a copy svc wrote, or a changed copy (moved to `backup`) */
  readonly replaced: 'Nothing' | 'Bundled' | 'Changed';
  readonly backup: string | null;
}

export type InstallRefusal = { readonly _tag: 'Changed'; readonly detail: string } | { readonly _tag: 'Failed'; readonly detail: string };

const writeFiles = (dir: string, files: ReadonlyMap<string, Buffer>): void => {
  for (const [rel, content] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
};

// The backup lives under the service home, which is owner-only: tighten what we copied there.
const makePrivate = (path: string): void => {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return;
  chmodSync(path, st.isDirectory() ? 0o700 : 0o600);
  if (st.isDirectory()) for (const name of readdirSync(path)) makePrivate(join(path, name));
};

const backUp = (folder: string, svcHome: string, harness: HarnessName, skill: string, stamp: string): string => {
  const backup = join(ensurePrivateDir(join(svcHome, 'skill-backups')), `${harness}-${skill}-${stamp}`);
  cpSync(folder, backup, { recursive: true, verbatimSymlinks: true });
  makePrivate(backup);
  return backup;
};

export const installSkill = (
  skill: BundledSkill, harness: HarnessName, root: string, o: { force: boolean; svcHome: string; stamp: string },
): Either<InstallRefusal, InstallResult> => {
  const folder = join(root, skill.name);
  const before = installedState(skill, harness, folder);
  if (before._tag === 'Changed' && !o.force) {
    return left({ _tag: 'Changed', detail: `${folder} was changed (${before.detail}); send "force": true to replace it (your copy is first moved to ${join(o.svcHome, 'skill-backups')})` });
  }
  const staging = join(root, `.${skill.name}.svc-staging-${process.pid}`);
  try {
    rmSync(staging, { recursive: true, force: true });
    writeFiles(staging, filesFor(skill, harness));
    const backup = before._tag === 'Changed' ? backUp(folder, o.svcHome, harness, skill.name, o.stamp) : null;
    rmSync(folder, { recursive: true, force: true }); // a symlink is removed, never what it points to
    renameSync(staging, folder);
    const replaced = before._tag === 'NotInstalled' ? 'Nothing' : before._tag === 'Installed' ? 'Bundled' : 'Changed';
    return right({ skill: skill.name, harness, version: skill.version, folder, replaced, backup });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    return left({ _tag: 'Failed', detail: `could not write ${folder}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
  }
};
