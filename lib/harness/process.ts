// Spawning one CLI turn: an args array (never a shell string), its own process group so abort
// and the watchdog can kill the whole tree (codex's node wrapper, opencode's workers), stdout
// read line by line, stderr kept as a short tail for error summaries.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type CliExit =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stderr: string }
  | { readonly kind: 'watchdog'; readonly stderr: string }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'spawn-failed'; readonly error: NodeJS.ErrnoException };

export interface CliSpec {
  readonly bin: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** 'pipe' keeps stdin open for the caller (claude stream-json); 'ignore' gives the CLI /dev/null */
  readonly stdin: 'pipe' | 'ignore';
  readonly watchdogMs: number;
  readonly signal: AbortSignal;
  readonly onLine: (line: string) => void;
  readonly onStderr: (line: string) => void;
}

export interface RunningCli {
  readonly child: ChildProcess;
  readonly exit: Promise<CliExit>;
  /** suspend (true) / resume (false) the watchdog; nested holds are counted */
  hold(held: boolean): void;
}

const KILL_GRACE_MS = 3000;
const STDERR_TAIL = 4000;

/** Signal the child's whole process group; escalate to SIGKILL if it lingers. */
export const killTree = (child: ChildProcess): void => {
  const send = (sig: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      child.kill(sig); // group already gone or never formed
    }
  };
  send('SIGTERM');
  const timer = setTimeout(() => send('SIGKILL'), KILL_GRACE_MS);
  timer.unref();
  child.once('exit', () => {
    clearTimeout(timer);
    send('SIGKILL'); // grandchildren that ignored SIGTERM must not outlive the turn
  });
};

export const runCli = (spec: CliSpec): RunningCli => {
  const child = spawn(spec.bin, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.stdin, 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  let ending: 'watchdog' | 'aborted' | undefined;
  let timer: NodeJS.Timeout | undefined;
  let holds = 0;
  let ended = false;
  const stop = (why: 'watchdog' | 'aborted'): void => {
    if (ending) return;
    ending = why;
    killTree(child);
  };
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = ended || holds > 0 ? undefined : setTimeout(() => stop('watchdog'), spec.watchdogMs);
  };
  const hold = (held: boolean): void => {
    holds = Math.max(0, holds + (held ? 1 : -1));
    arm();
  };
  const onAbort = (): void => stop('aborted');
  spec.signal.addEventListener('abort', onAbort, { once: true });
  arm();
  createInterface({ input: child.stdout! }).on('line', (line) => (arm(), spec.onLine(line)));
  createInterface({ input: child.stderr! }).on('line', (line) => {
    arm();
    stderr = (stderr + line + '\n').slice(-STDERR_TAIL);
    spec.onStderr(line);
  });
  const exit = new Promise<CliExit>((resolve) => {
    const done = (e: CliExit): void => {
      ended = true; // no re-arming after the end
      if (timer) clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      resolve(e);
    };
    child.once('error', (error) => done({ kind: 'spawn-failed', error }));
    // 'close' waits for stdout to drain, so every line has been seen before we resolve
    child.once('close', (code, signal) => {
      if (ending === 'aborted') return done({ kind: 'aborted' });
      if (ending === 'watchdog') return done({ kind: 'watchdog', stderr });
      done({ kind: 'exited', code, signal, stderr });
    });
  });
  // A grandchild holding stdout open must not keep the turn alive after the CLI itself exited.
  child.once('exit', () => {
    const t = setTimeout(() => (killTree(child), child.stdout?.destroy(), child.stderr?.destroy()), KILL_GRACE_MS);
    t.unref();
    child.once('close', () => clearTimeout(t));
  });
  if (spec.signal.aborted) onAbort();
  return { child, exit, hold };
};
