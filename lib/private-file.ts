import { writeFileSync, renameSync, chmodSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { ensurePrivateDir } from './paths.js';

// Writes a file readable by its owner only, atomically: readers never see half a file.
export const writePrivateFile = (path: string, content: string | Buffer): void => {
  ensurePrivateDir(dirname(path));
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(tmp, content, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
};
