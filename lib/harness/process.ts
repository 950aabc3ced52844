// Spawning one CLI turn: an args array (never a shell string), its own process group so abort
// and the watchdog can kill the whole tree (codex's node wrapper, opencode's workers), stdout
// read line by line, stderr kept as a short tail for error summaries. Every CLI runs under the
// lifeline wrapper (lifeline.mjs, the group's leader), which ends the group when this server dies.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { packageRoot } from '../package-root.js';
import { procStartTime, type GroupLeader } from './process-group.js';

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
  /** the process group's leader, as soon as it is spawned (recorded so a restart can end it) */
  readonly onStarted?: (leader: GroupLeader) => void;
  /** run it inside this sandbox (lib/sandbox): the lifeline and the CLI both go in */
  readonly sandbox?: SpawnWrap;
}

/** What a sandbox does to a command line: the command line that runs it inside (lib/sandbox/sandbox.ts). */
export interface SpawnWrap {
  wrap(file: string, args: readonly string[], env: NodeJS.ProcessEnv): { readonly file: string; readonly args: string[]; readonly env: NodeJS.ProcessEnv };
}

export interface RunningCli {
  readonly child: ChildProcess;
  readonly exit: Promise<CliExit>;
  /** suspend (true) / resume (false) the watchdog; nested holds are counted */
  hold(held: boolean): void;
}

const KILL_GRACE_MS = 3000;
const STDERR_TAIL = 4000;

/**
 * Signal the child's whole process group; escalate to SIGKILL if it lingers. `first` replaces the
 * opening SIGTERM (a sandboxed CLI is asked through its lifeline: see askInside).
 */
export const killTree = (child: ChildProcess, first?: () => void): void => {
  const send = (sig: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      child.kill(sig); // group already gone or never formed
    }
  };
  if (first) first();
  else send('SIGTERM');
  const timer = setTimeout(() => send('SIGKILL'), KILL_GRACE_MS);
  timer.unref();
  child.once('exit', () => {
    clearTimeout(timer);
    send('SIGKILL'); // grandchildren that ignored SIGTERM must not outlive the turn
  });
};

// Inside bubblewrap the CLI has its own PID namespace and session: a signal to our group reaches
// bwrap alone, which dies and takes everything inside with SIGKILL (--die-with-parent). So the
// lifeline inside is asked over fd 3 to send SIGTERM to its own group, the CLI's.
const askInside = (child: ChildProcess): void => {
  const fd3 = child.stdio[3] as Writable | null | undefined;
  if (!fd3 || fd3.destroyed || !fd3.writable) return;
  // the CLI may be gone already (EPIPE): then there is nothing to ask, and the group kill follows
  fd3.on('error', () => undefined);
  try {
    fd3.write(`${JSON.stringify({ signal: 'SIGTERM' })}\n`, () => undefined);
  } catch {
    // a pipe closed under us: as above
  }
};

export const LIFELINE = join(packageRoot(), 'lib', 'harness', 'lifeline.mjs');

/**
 * Each line a child's pipe gives. readline re-emits the pipe's errors on its interface, so an
 * EPIPE from a child that died as we wrote to it (the lifeline's fd 3) was an uncaught exception
 * that ended svc: a pipe's error ends its lines, never the process.
 */
export const eachLine = (input: Readable, onLine: (line: string) => void): void => {
  input.on('error', () => undefined);
  createInterface({ input }).on('line', onLine).on('error', () => undefined);
};

/** What the wrapper says on fd 3: the CLI could not be started (ENOENT: not installed). */
export const watchLifeline = (pipe: Readable | null | undefined, onError: (e: NodeJS.ErrnoException) => void): void => {
  if (!pipe) return;
  eachLine(pipe, (line) => {
    try {
      const msg = JSON.parse(line) as { error?: { code: string; message: string } };
      if (msg.error) onError(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
    } catch {
      // not ours: ignore
    }
  });
};

// Sandboxed, bubblewrap leads the group and the lifeline runs inside it (fd 3 passes through);
// ending the group ends bubblewrap, and --die-with-parent ends everything inside.
const spawnUnderLifeline = (spec: CliSpec): ChildProcess => {
  const plain = { file: process.execPath, args: [LIFELINE, spec.bin, ...spec.args], env: spec.env };
  const run = spec.sandbox ? spec.sandbox.wrap(plain.file, plain.args, plain.env) : plain;
  return spawn(run.file, run.args, {
    cwd: spec.cwd,
    env: run.env,
    // fd 3 is the lifeline: only this process holds its other end, so it closes when we die
    stdio: [spec.stdin, 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
};

export const runCli = (spec: CliSpec): RunningCli => {
  const child = spawnUnderLifeline(spec);
  let spawnError: NodeJS.ErrnoException | undefined;
  watchLifeline(child.stdio[3] as Readable | null, (e) => (spawnError = e));
  if (child.pid !== undefined) {
    const startTime = procStartTime(child.pid);
    if (startTime !== undefined) spec.onStarted?.({ pid: child.pid, startTime });
  }
  let stderr = '';
  let ending: 'watchdog' | 'aborted' | undefined;
  let timer: NodeJS.Timeout | undefined;
  let holds = 0;
  let ended = false;
  const stop = (why: 'watchdog' | 'aborted'): void => {
    if (ending) return;
    ending = why;
    killTree(child, spec.sandbox ? () => askInside(child) : undefined);
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
  eachLine(child.stdout!, (line) => (arm(), spec.onLine(line)));
  eachLine(child.stderr!, (line) => {
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
      if (spawnError) return done({ kind: 'spawn-failed', error: spawnError });
      done({ kind: 'exited', code, signal, stderr });
    });
  });
  // A grandchild holding stdout open must not keep the turn alive after the CLI itself exited.
  child.once('exit', () => {
    const t = setTimeout(() => (killTree(child), child.stdout?.destroy(), child.stderr?.destroy(), child.stdio[3]?.destroy()), KILL_GRACE_MS);
    t.unref();
    child.once('close', () => clearTimeout(t));
  });
  if (spec.signal.aborted) onAbort();
  return { child, exit, hold };
};
