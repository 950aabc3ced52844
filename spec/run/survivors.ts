import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// What the test suite left running. `npm test` gives the whole run one temp folder (TMPDIR) and
// names it in SVC_TEST_SUITE; every process a test starts inherits that variable, names a folder
// inside it on its command line (a browser's profile, a server's home) or works in one (an agent CLI
// in a run's worktree). After ava has ended, any such process still alive is a survivor: a test
// started it and nothing ended it.

export interface Survivor { readonly pid: number; readonly command: string }

export const SUITE_VARIABLE = 'SVC_TEST_SUITE';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // gone meanwhile, or another user's process
  }
};

const cwdOf = (path: string): string => {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
};

/** whether a process's environment (NUL-separated), command line or working folder tie it to the suite's folder */
export const belongsToSuite = (environ: string, cmdline: string, suiteDir: string, cwd = ''): boolean =>
  environ.split('\0').includes(`${SUITE_VARIABLE}=${suiteDir}`) || cmdline.includes(suiteDir) || cwd === suiteDir || cwd.startsWith(`${suiteDir}/`);

/** the live processes tied to `suiteDir`, this process excepted (Linux /proc; elsewhere none are seen) */
export const survivors = (suiteDir: string, procRoot = '/proc'): Survivor[] => {
  let pids: string[];
  try {
    pids = readdirSync(procRoot).filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.flatMap((p) => {
    const pid = Number(p);
    if (pid === process.pid) return [];
    const cmdline = read(`${procRoot}/${p}/cmdline`);
    if (cmdline === null || cmdline === '') return []; // zombies and kernel threads have none
    const environ = read(`${procRoot}/${p}/environ`) ?? '';
    return belongsToSuite(environ, cmdline, suiteDir, cwdOf(`${procRoot}/${p}/cwd`)) ? [{ pid, command: cmdline.split('\0').join(' ').trim() }] : [];
  });
};

/** SIGKILL each survivor; one that ended meanwhile is not an error */
export const endSurvivors = (list: readonly Survivor[]): void => {
  for (const s of list) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
};

/** survivors once those still on their way out have had a few seconds to go */
export const settledSurvivors = async (suiteDir: string, tries = 50, pauseMs = 200): Promise<Survivor[]> => {
  let left = survivors(suiteDir);
  for (let i = 0; i < tries && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, pauseMs));
    left = survivors(suiteDir);
  }
  return left;
};

/** what `npm test` prints when the tests left processes running */
export const survivorReport = (list: readonly Survivor[]): string =>
  [`npm test: ${list.length} process(es) started by the tests were still running after ava ended; ended them now:`,
    ...list.map((s) => `  ${s.pid} ${s.command.slice(0, 300)}`)].join('\n');
