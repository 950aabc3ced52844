import { spawn, type ChildProcess } from 'node:child_process';
import { argvProblem } from '../../domain/argv.js';

// Runs the notification command: argv as given (never a shell), the notice as one JSON document on
// stdin, a few environment variables. Untrusted text (a question, a failure) reaches it only
// inside that JSON, never as an argument or in the environment. It gets 10 seconds; whatever
// happens is an answer, never a throw, and never waits on the run.

export const COMMAND_TIMEOUT_MS = 10_000;

export type CommandResult = { readonly ok: true } | { readonly ok: false; readonly detail: string };

const tail = (s: string): string => s.trim().slice(-500);

export const runNotifyCommand = (argv: readonly string[], input: string, env: Readonly<Record<string, string>>, timeoutMs = COMMAND_TIMEOUT_MS): Promise<CommandResult> =>
  new Promise((resolve) => {
    const [program, ...args] = argv;
    if (!program) return resolve({ ok: false, detail: 'no command is set' });
    // a command stored before the settings decoder refused it (or edited by hand)
    const problem = argvProblem(argv);
    if (problem) return resolve({ ok: false, detail: `the command stored in Settings cannot run: ${problem}` });
    let stderr = '';
    let settled = false;
    const done = (r: CommandResult) => { if (!settled) { settled = true; clearTimeout(timer); resolve(r); } };
    let child: ChildProcess;
    try {
      child = spawn(program, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
    } catch (err) {
      // spawn throws (not emits) on what it cannot take: that is an answer too
      return resolve({ ok: false, detail: `could not start ${program}: ${err instanceof Error ? err.message : String(err)}` });
    }
    const timer = setTimeout(() => { child.kill('SIGKILL'); done({ ok: false, detail: `timed out after ${timeoutMs / 1000} s` }); }, timeoutMs);
    child.stderr!.on('data', (b: Buffer) => { stderr = (stderr + b.toString('utf8')).slice(-4000); });
    child.on('error', (err) => done({ ok: false, detail: `could not start ${program}: ${err.message}` }));
    child.on('close', (code, signal) => done(code === 0 ? { ok: true } : { ok: false, detail: `exited with ${signal ?? `code ${code}`}${stderr ? `: ${tail(stderr)}` : ''}` }));
    child.stdin!.on('error', () => undefined); // a command that does not read its input is not a failure
    child.stdin!.end(input);
  });
