import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './env.js';

// The hub's git held in a run folder (the workers specs): the folder's objects/info/alternates
// (read by every git call that looks at objects there) is made a named pipe, so such a call waits
// until the test lets it go. Let go when the test ends, whatever happened.

// a writer on the pipe lets the git call that waits on it go on; none waiting: nothing to do
const release = (fifo: string, text: string): void => {
  try {
    const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try { writeFileSync(fd, text); } finally { closeSync(fd); }
  } catch { /* no reader */ }
};

/** holds git's object reads in the run folder `dir`; the answer lets them go (the alternates back as they were) */
export const holdObjects = (t: ExecutionContext, dir: string): (() => void) => {
  const alternates = join(dir, '.git', 'objects', 'info', 'alternates');
  t.true(existsSync(alternates), 'a run folder borrows the project\'s objects');
  const text = readFileSync(alternates, 'utf8');
  const fifo = join(tempDir('svc-fifo-'), 'alternates');
  execFileSync('mkfifo', [fifo]);
  renameSync(alternates, `${alternates}.real`);
  symlinkSync(fifo, alternates);
  t.teardown(() => release(fifo, text));
  return () => {
    renameSync(`${alternates}.real`, alternates);
    release(fifo, text);
  };
};
