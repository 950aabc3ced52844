import { readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { writePrivateFile } from '../private-file.js';

// A CLI's `--version` is the same until its file changes, and asking costs: opencode's answer
// takes about 1.5 s of CPU (a whole Bun bundle starting), and every `svc serve` asks each CLI. So
// a version once read is kept in a file (by default <home>/cache/cli-versions.json, owner-only)
// against the identity of the file that answered it: its real path, inode, size and change times.
// An upgrade or a reinstall writes a new file, which is a new identity: asked again. Only a version
// that was read is kept; "not there", a failure or a slow answer is asked again every time.

interface Entry { readonly ino: number; readonly size: number; readonly mtimeMs: number; readonly ctimeMs: number; readonly version: string }

/** the file a command name runs: itself when it has a slash, else the first executable match on PATH */
const located = (bin: string, env: NodeJS.ProcessEnv): string | undefined => {
  if (bin.includes('/')) return isAbsolute(bin) ? bin : undefined;
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, bin);
    try {
      if (statSync(path).isFile()) return path;
    } catch { /* not in this folder */ }
  }
  return undefined;
};

/** where the file a command runs is, and what it is now; undefined when it cannot be told */
export const identityOf = (bin: string, env: NodeJS.ProcessEnv): { readonly path: string; readonly entry: Omit<Entry, 'version'> } | undefined => {
  const at = located(bin, env);
  if (!at) return undefined;
  try {
    const path = realpathSync(at);
    const s = statSync(path);
    return { path, entry: { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs } };
  } catch {
    return undefined;
  }
};

const readAll = (file: string): Record<string, Entry> => {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Entry>) : {};
  } catch {
    return {}; // none yet, or a file someone broke: it is only a cache
  }
};

const same = (a: Omit<Entry, 'version'>, b: Entry): boolean =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && typeof b.version === 'string';

/** the version kept for this command's file as it is now, if one was read from it */
export const keptVersion = (file: string, bin: string, env: NodeJS.ProcessEnv): string | undefined => {
  const id = identityOf(bin, env);
  const kept = id && readAll(file)[id.path];
  return id && kept && same(id.entry, kept) ? kept.version : undefined;
};

/** keeps a version read from this command's file; a cache that cannot be written is not an error */
export const keepVersion = (file: string, bin: string, env: NodeJS.ProcessEnv, version: string): void => {
  const id = identityOf(bin, env);
  if (!id) return;
  try {
    writePrivateFile(file, JSON.stringify({ ...readAll(file), [id.path]: { ...id.entry, version } }));
  } catch { /* a read-only home still checks, only slower */ }
};
