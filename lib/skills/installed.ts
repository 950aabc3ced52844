import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessName } from '../../domain/workflow.js';
import { hashFiles, type BundledSkill } from './bundle.js';

// What is in a harness's skill folder for one bundled skill: nothing, an untouched copy of a
// released version (its content hash is the one recorded for that version), or a copy the user
// changed (or replaced with something else, e.g. a symlink to their own folder).

export type InstalledState =
  | { readonly _tag: 'NotInstalled' }
  | { readonly _tag: 'Installed'; readonly version: string; readonly upToDate: boolean }
  | { readonly _tag: 'Changed'; readonly version: string | null; readonly detail: string };

const MAX_FILES = 500;
const MAX_BYTES = 8 * 1024 * 1024;

type Read = { files: Map<string, Buffer>; bytes: number } | string;

// Reads a folder without following links; anything that is not a plain file or folder is a change.
const readTree = (dir: string, prefix: string, acc: { files: Map<string, Buffer>; bytes: number }): string | undefined => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    const st = lstatSync(path);
    if (st.isDirectory()) {
      const problem = readTree(path, rel, acc);
      if (problem) return problem;
    } else if (!st.isFile()) return `${rel} is not a plain file`;
    else {
      acc.bytes += st.size;
      if (acc.files.size >= MAX_FILES || acc.bytes > MAX_BYTES) return 'the folder holds much more than the skill';
      acc.files.set(rel, readFileSync(path));
    }
  }
  return undefined;
};

const readFolder = (dir: string): Read | undefined => {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return 'the skill folder is a symbolic link';
  if (!st.isDirectory()) return 'there is a file where the skill folder belongs';
  const acc = { files: new Map<string, Buffer>(), bytes: 0 };
  try {
    return readTree(dir, '', acc) ?? acc;
  } catch (err) {
    return `the folder cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
};

/** metadata.version from SKILL.md's front matter, as the bundled skills write it */
export const claimedVersion = (skillMd: Buffer | undefined): string | null => {
  if (!skillMd) return null;
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(skillMd.toString('utf8'));
  const v = m && /^\s+version:\s*["']?([^"'\s]+)["']?\s*$/m.exec(m[1]!);
  return v ? v[1]! : null;
};

export const installedState = (skill: BundledSkill, harness: HarnessName, folder: string): InstalledState => {
  const read = readFolder(folder);
  if (read === undefined) return { _tag: 'NotInstalled' };
  if (typeof read === 'string') return { _tag: 'Changed', version: null, detail: read };
  const version = claimedVersion(read.files.get('SKILL.md'));
  const known = version === null ? undefined : skill.hashes[version]?.[harness];
  if (known !== undefined && known === hashFiles(read.files)) return { _tag: 'Installed', version: version!, upToDate: version === skill.version };
  const detail = version === null ? 'SKILL.md names no version svc wrote' : known === undefined ? `version ${version} was never bundled with svc` : `the files differ from svc's version ${version}`;
  return { _tag: 'Changed', version, detail };
};
