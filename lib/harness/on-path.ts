import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

// A cheap, synchronous "is it there now?": a check that said NotInstalled goes stale the moment
// the person installs the CLI, and a start should not be refused on that old answer.
export const onPath = (bin: string, env: NodeJS.ProcessEnv = process.env): boolean =>
  bin.includes('/') ? executable(bin) : (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, bin)));
