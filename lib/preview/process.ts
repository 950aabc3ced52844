import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { eachLine, LIFELINE, watchLifeline } from '../harness/process.js';
import { procStartTime, type GroupLeader } from '../harness/process-group.js';

// A preview's process (its setup or its server) runs as the agents' CLIs do: under the lifeline
// (lib/harness/lifeline.mjs), the leader of its own process group, with fd 3 held only by svc; when
// svc dies, even by SIGKILL, the lifeline ends the whole group, so no dev server is left orphaned.

export interface GroupProcess {
  readonly leader: GroupLeader | null;
  /** the exit code (null when signalled) and, when it could not start, why */
  readonly exit: Promise<{ readonly code: number | null; readonly spawnError: string | null }>;
}

export interface GroupSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly onLine: (line: string) => void;
  /** svc's sandbox around the lifeline (lib/sandbox): bubblewrap then leads the group, fd 3 passes through */
  readonly wrap?: ((file: string, args: readonly string[], env: NodeJS.ProcessEnv) => { readonly file: string; readonly args: string[]; readonly env: NodeJS.ProcessEnv }) | undefined;
}

export const startGroup = (spec: GroupSpec): GroupProcess => {
  const [bin, ...args] = spec.argv;
  const plain = { file: process.execPath, args: [LIFELINE, bin!, ...args], env: spec.env };
  const cmd = spec.wrap ? spec.wrap(plain.file, plain.args, plain.env) : plain;
  const child = spawn(cmd.file, cmd.args, { cwd: spec.cwd, env: cmd.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  let spawnError: string | null = null;
  watchLifeline(child.stdio[3] as Readable | null, (e) => (spawnError = e.message));
  const startTime = child.pid === undefined ? undefined : procStartTime(child.pid);
  const leader = child.pid !== undefined && startTime !== undefined ? { pid: child.pid, startTime } : null;
  eachLine(child.stdout!, spec.onLine);
  eachLine(child.stderr!, spec.onLine);
  const exit = new Promise<{ code: number | null; spawnError: string | null }>((resolve) => {
    child.once('error', (e) => resolve({ code: null, spawnError: e.message }));
    child.once('exit', (code) => {
      child.stdio[3]?.destroy();
      // a grandchild holding stdout must not keep the stream open: ours ended
      setTimeout(() => { child.stdout?.destroy(); child.stderr?.destroy(); }, 500).unref();
      resolve({ code, spawnError });
    });
  });
  return { leader, exit };
};
