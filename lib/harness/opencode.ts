// opencode headless: `opencode run --format json`, stdin ignored; MCP and permissions through
// inline config. It exits when the session goes idle; it cannot take a message mid-turn.
import type { HarnessAdapter, Turn, TurnInput, TurnResult } from './adapter.js';
import type { Availability } from '../../domain/harness.js';
import { classifyText, clip } from './classify.js';
import { binFor, lastLines, processResult, quietAfterQuota, turnEnv, versionOf, parseJsonLine, type HarnessConfig } from './common.js';
import { opencodeArgs, opencodeConfig } from './opencode-args.js';
import { opencodeActivity } from './opencode-activity.js';
import { opencodeTurnResult, readOpencodeEvent, type OpencodeState } from './opencode-events.js';
import { runCli, type CliExit } from './process.js';
import { withQuota } from './quota.js';

// A quota failure carries the provider's error and the reset its response headers name.
const finish = (exit: CliExit, state: OpencodeState, input: TurnInput): TurnResult => {
  const r = finishTurn(exit, state, input);
  return withQuota(r, r.summary, input.now?.() ?? new Date(), state.error?.headers ? { headers: state.error.headers } : {});
};

// the error-level log line (--print-logs) opencode writes when a model request fails, before it
// retries: the provider's message, without status or headers
const STREAM_ERROR = /message="stream error".*?error\.error="((?:[^"\\]|\\.)*)"/;

const finishTurn = (exit: CliExit, state: OpencodeState, input: TurnInput): TurnResult => {
  const forced = quietAfterQuota(exit, 'opencode', state.retrying, state.sessionId) ?? processResult(exit, 'opencode', input.watchdogMs, state.sessionId);
  if (forced) return forced;
  if (exit.kind !== 'exited') return { outcome: 'failure', failure: 'error', summary: 'opencode ended unexpectedly' };
  const result = opencodeTurnResult(state, exit.code);
  if (result.outcome === 'failure' && !state.error && exit.stderr.trim()) {
    return { ...result, failure: classifyText(exit.stderr), summary: clip(`${result.summary}: ${lastLines(exit.stderr)}`) };
  }
  return result;
};

export const startOpencodeTurn = (bin: string, config: HarnessConfig, input: TurnInput): Turn => {
  const state: OpencodeState = { cost: 0, usage: {} };
  const existing = input.env.OPENCODE_CONFIG_CONTENT ?? (config.env ?? process.env).OPENCODE_CONFIG_CONTENT;
  const cli = runCli({
    bin,
    args: opencodeArgs(input),
    cwd: input.cwd,
    env: turnEnv(config, input, { OPENCODE_CONFIG_CONTENT: opencodeConfig(input, existing) }),
    stdin: 'ignore',
    watchdogMs: input.watchdogMs,
    signal: input.signal,
    ...(input.onProcess ? { onStarted: input.onProcess } : {}),
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    onStderr: (line) => {
      const failed = STREAM_ERROR.exec(line)?.[1];
      if (failed) state.retrying = failed;
      input.onLog({ text: `stderr: ${line}` });
    },
    onLine: (line) => {
      state.retrying = undefined; // it spoke again: not (or no longer) waiting out a retry
      const ev = parseJsonLine(line);
      input.onLog({ text: ev ? readOpencodeEvent(ev, state, { onMessage: input.onMessage, onSession: (id) => input.onSession?.(id) }) : line });
      if (ev) for (const a of opencodeActivity(ev, input.cwd)) input.onActivity?.(a);
    },
  });
  return { result: cli.exit.then((exit) => finish(exit, state, input)), send: () => false, holdWatchdog: cli.hold };
};

// opencode finds credentials in many places (auth.json, provider env vars, inline config, free
// models), so there is no cheap, honest "logged in" answer: check() only asks for the version.
export const opencodeAdapter = (config: HarnessConfig = {}): HarnessAdapter => {
  const bin = binFor('opencode', config);
  const check = (): Promise<Availability> => versionOf(bin, config.env ?? process.env, undefined, config.versionCache);
  return { name: 'opencode', bin, check, startTurn: (input) => startOpencodeTurn(bin, config, input) };
};
