import { execFile } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withoutCredentials } from './remote-url.js';

// The only place the service runs git: argument arrays (never a shell string) and a timeout on
// every call, so a hung git (credential prompt, lock) can never hang a run.

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitOptions {
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
}

const DEFAULT_TIMEOUT_MS = 60_000;

// Variables that point git at a repository. Every call names its folder through cwd, so one
// inherited from the server's environment (say, started from inside a git hook) would only send
// git to the wrong repository.
const REPOSITORY_LOCATORS = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX', 'GIT_QUARANTINE_PATH',
];

// A run's own repository (<home>/worktrees/<run>/<folder>, docs/run-folders.md) is written by the
// agent, and svc runs git there outside the sandbox (step end, secure, merge). Whatever config the
// agent managed to plant must not make svc's git run a program: command-line config (the highest
// precedence) switches off hooks and fsmonitor, and the common folder is named outright, so a
// planted `.git/commondir` cannot swap in a config of the agent's (docs/sandbox.md).
const RUN_FOLDER = /\/worktrees\/[A-Za-z0-9][A-Za-z0-9_-]*\/[^/]+\/?$/;
const RUN_GUARD: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'], ['core.fsmonitor', 'false'], ['core.editor', ':'], ['sequence.editor', ':'],
  ['commit.gpgSign', 'false'], ['tag.gpgSign', 'false'], ['core.pager', 'cat'],
];

const isDir = (p: string): boolean => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

// svc's own git never starts git's background housekeeping (`git maintenance run --auto`, which a
// fetch or a commit starts when a repository looks untidy): a run's repository lives for one run,
// and in the person's repository that is left to their own git, not started by a server mid-run.
// It was also one in seventeen of the git processes in a sample of twenty spec files.
const EVERY_CALL: readonly (readonly [string, string])[] = [['maintenance.auto', 'false']];

/** the command-line config svc gives git in `cwd` (the guard in a run's folder), and the common folder it names there */
export const runFolderGuard = (cwd: string): { config: readonly (readonly [string, string])[]; env: Record<string, string> } => {
  if (!RUN_FOLDER.test(resolve(cwd))) return { config: EVERY_CALL, env: {} };
  const dotGit = join(resolve(cwd), '.git');
  return { config: [...RUN_GUARD, ...EVERY_CALL], env: isDir(dotGit) ? { GIT_COMMON_DIR: dotGit } : {} };
};

// Appended after any GIT_CONFIG_KEY_<n> already in the environment: git takes them in order, the
// last value of a key winning, so svc's guard holds while a person's own entries still apply.
const withConfig = (env: NodeJS.ProcessEnv, pairs: readonly (readonly [string, string])[]): void => {
  const had = Number.parseInt(env['GIT_CONFIG_COUNT'] ?? '', 10);
  const from = Number.isInteger(had) && had > 0 ? had : 0;
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${from + i}`] = k;
    env[`GIT_CONFIG_VALUE_${from + i}`] = v;
  });
  env['GIT_CONFIG_COUNT'] = String(from + pairs.length);
};

// Never ask for credentials on a terminal; C locale so git's output can be parsed.
const baseEnv = (cwd: string, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => {
  const guard = runFolderGuard(cwd);
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', LC_ALL: 'C', ...extra };
  for (const k of REPOSITORY_LOCATORS) if (!(k in extra)) delete env[k];
  Object.assign(env, guard.env);
  withConfig(env, guard.config);
  return env;
};

export const git = (cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<GitResult> =>
  new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd, env: baseEnv(cwd, opts.env), timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1) : 0;
        const timedOut = error && (error as { killed?: boolean }).killed ? `git ${args[0]} timed out\n` : '';
        // A spawn failure (missing cwd, no git binary) has no stderr of its own: keep Node's words.
        const spawnFailure = error && code === -1 && !timedOut ? `${error.message}\n` : '';
        resolve({ code, stdout: String(stdout), stderr: timedOut + spawnFailure + String(stderr) });
      },
    );
  });

export class GitError extends Error {
  constructor(readonly args: readonly string[], readonly result: GitResult) {
    super(withoutCredentials(`git ${args.join(' ')} failed (${result.code}): ${result.stderr.trim() || result.stdout.trim()}`));
  }
}

// For calls that must succeed: throws GitError with git's own words.
export const gitOk = async (cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> => {
  const r = await git(cwd, args, opts);
  if (r.code !== 0) throw new GitError(args, r);
  return r.stdout;
};

// Prepended to commands that must not run the repository's hooks: `--no-verify` covers only
// pre-commit, commit-msg and pre-push; an empty hooks path silences every other hook
// (post-commit, post-checkout, reference-transaction...) as well.
export const NO_HOOKS: readonly string[] = ['-c', 'core.hooksPath=/dev/null'];

// What git said, on one line without its hints, for reasons given back to callers.
export const gitReason = (r: GitResult): string => {
  const lines = (r.stderr.trim() || r.stdout.trim())
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('hint:'));
  const said = withoutCredentials(lines.join(' | '));
  if (said === '') return `git exited with code ${r.code}`;
  return said.length > 500 ? `${said.slice(0, 500)}…` : said;
};
