import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Finding a program the way a shell would: a name is looked up on PATH, a path is taken as it is.
// Cheap and synchronous, so a caller can ask "is it there now?" instead of trusting an old answer
// (a check that said NotInstalled goes stale the moment the person installs the CLI).

export const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** where `name` is on the PATH given (a list joined by the platform's delimiter), or null */
export const findOnPath = (name: string, PATH: string): string | null => {
  for (const dir of PATH.split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
};

export const onPath = (bin: string, env: NodeJS.ProcessEnv = process.env): boolean =>
  bin.includes('/') ? executable(bin) : findOnPath(bin, env['PATH'] ?? '') !== null;
