// Pieces every adapter shares: which binary to run, the environment a turn gets, and a bounded
// "ask the CLI" helper for availability checks (never hangs: timeout, then the tree is killed).
import { execFile } from 'node:child_process';
import type { HarnessName } from '../../domain/workflow.js';
import type { TurnInput, TurnResult } from './adapter.js';
import type { Availability } from '../../domain/harness.js';
import { classifyText, clip } from './classify.js';
import type { CliExit } from './process.js';
import { keepVersion, keptVersion } from './version-cache.js';

export interface HarnessConfig {
  /** binary path per CLI; default: the name on PATH */
  readonly commands?: Partial<Record<HarnessName, string>>;
  /** environment used for binary overrides (SVC_HARNESS_BIN_<NAME>) and for checks; default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** the file versions read from `--version` are kept in (lib/harness/version-cache.ts); none: always ask */
  readonly versionCache?: string;
}

/** SVC_HARNESS_BIN_<NAME> wins (an operator override), then the config, then the bare name. */
export const binFor = (name: HarnessName, config: HarnessConfig): string =>
  (config.env ?? process.env)[`SVC_HARNESS_BIN_${name.toUpperCase()}`] || config.commands?.[name] || name;

export const turnEnv = (config: HarnessConfig, input: TurnInput, extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...(config.env ?? process.env),
  ...input.env,
  ...extra,
});

/** env var holding the run token for the CLI's MCP client (never on the command line) */
export const RUN_TOKEN_ENV = 'SVC_RUN_TOKEN';

/** 24 days (just under the 2^31 ms a timer can hold): a question waits for a person however long
 * that takes; a restart of svc is survived by resuming the session instead (docs/harnesses.md). */
export const MCP_TOOL_TIMEOUT_MS = 24 * 24 * 60 * 60 * 1000;

export interface Asked {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error?: NodeJS.ErrnoException;
  /** ended by the timeout, not by itself */
  readonly timedOut?: true;
}

export const askCli = (bin: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<Asked> =>
  new Promise((resolve) => {
    execFile(bin, [...args], { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const err = error as (NodeJS.ErrnoException & { code?: unknown; killed?: boolean }) | null;
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      // execFile kills only on its timeout (or maxBuffer, which a version line never reaches)
      resolve({ code, stdout: String(stdout), stderr: String(stderr), error: err ?? undefined, ...(err?.killed ? { timedOut: true as const } : {}) });
    });
  });

export const firstLine = (s: string): string => s.trim().split('\n')[0]?.trim() ?? '';

/**
 * how long `--version` may take: opencode's needs 1.5 s of CPU, and on a machine loaded with other
 * turns it took more than 15 s (measured), which once made a CLI that was there read as not installed
 */
const VERSION_TIMEOUT_MS = 60_000;

/**
 * Installed? Answer from `<bin> --version`; ENOENT/EACCES mean not installed. A CLI that started
 * but did not answer in time is there: Ready, its version unknown (a turn that hangs is the
 * watchdog's to end), rather than refusing every run on it until the next check.
 */
export const versionOf = async (bin: string, env: NodeJS.ProcessEnv, timeoutMs = VERSION_TIMEOUT_MS, cache?: string): Promise<Availability> => {
  const kept = cache === undefined ? undefined : keptVersion(cache, bin, env);
  if (kept !== undefined) return { _tag: 'Ready', version: kept };
  const r = await askCli(bin, ['--version'], env, timeoutMs);
  if (r.error && (r.error.code === 'ENOENT' || r.error.code === 'EACCES')) {
    return { _tag: 'NotInstalled', detail: `${bin}: ${r.error.code === 'ENOENT' ? 'not found' : 'not executable'}`, missing: true };
  }
  if (r.timedOut) return { _tag: 'Ready' };
  // a timeout is answered above: a silent failure is named by how it ended
  if (r.code !== 0) return { _tag: 'NotInstalled', detail: `${bin} --version failed: ${firstLine(r.stderr || r.stdout) || (r.code === null ? 'killed' : `exit code ${r.code}`)}` };
  const version = firstLine(r.stdout);
  if (cache !== undefined) keepVersion(cache, bin, env, version);
  return { _tag: 'Ready', version };
};

/** Results the process itself decides, whatever the CLI printed. */
export const processResult = (exit: CliExit, name: string, watchdogMs: number, sessionId?: string): TurnResult | undefined => {
  if (exit.kind === 'aborted') return { outcome: 'interrupted', summary: `${name} turn interrupted`, sessionId };
  if (exit.kind === 'watchdog') {
    const secs = Math.round(watchdogMs / 1000);
    return { outcome: 'failure', failure: 'watchdog', summary: `${name} printed nothing for ${secs}s; the turn was stopped`, sessionId };
  }
  if (exit.kind === 'spawn-failed') {
    const missing = exit.error.code === 'ENOENT';
    return { outcome: 'failure', failure: 'unavailable', summary: missing ? `${name} is not installed (${exit.error.message})` : `${name} could not start: ${exit.error.message}` };
  }
  return undefined;
};

/**
 * codex and opencode wait out a provider's retry-after by themselves, printing nothing (measured:
 * codex 0.169 up to five times, opencode 1.18 five times, uncapped): a long one, an account's
 * usage window, ends in the watchdog. When the last thing the CLI said before going quiet was a
 * quota error, that silence is quota, not a hang (the reset only if those words name one).
 */
export const quietAfterQuota = (exit: CliExit, name: string, lastError: string | undefined, sessionId?: string): TurnResult | undefined =>
  exit.kind === 'watchdog' && lastError && classifyText(lastError) === 'quota'
    ? { outcome: 'failure', failure: 'quota', summary: clip(`${name} went quiet retrying after: ${lastError}`), sessionId }
    : undefined;

export const lastLines = (s: string, n = 3): string => s.trim().split('\n').slice(-n).join(' | ');

/** One line of a CLI's JSON output; undefined for anything else (banners, warnings). */
export const parseJsonLine = (line: string): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
