// opencode headless: `opencode run --format json`, stdin ignored; MCP and permissions through
// inline config. It exits when the session goes idle; it cannot take a message mid-turn.
import type { Availability, HarnessAdapter, Turn, TurnInput, TurnResult } from './adapter.js';
import { classifyText, clip } from './classify.js';
import { binFor, lastLines, processResult, turnEnv, versionOf, parseJsonLine, type HarnessConfig } from './common.js';
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

// opencode waits out a provider's retry-after by itself, silently and uncapped, up to five times
// (measured, 1.18): a long one (an account's usage window) ends in the watchdog. Its error log
// line (--print-logs) said why before it went quiet; a quota error there makes the silence quota,
// not a hang. The headers are not in that line: no reset is known, the run backs off.
const STREAM_ERROR = /message="stream error".*?error\.error="((?:[^"\\]|\\.)*)"/g;

const quietAfterQuota = (exit: CliExit, state: OpencodeState): TurnResult | undefined => {
  if (exit.kind !== 'watchdog') return undefined;
  const last = [...exit.stderr.matchAll(STREAM_ERROR)].pop()?.[1];
  if (!last || classifyText(last) !== 'quota') return undefined;
  return { outcome: 'failure', failure: 'quota', summary: clip(`opencode went quiet retrying after: ${last}`), sessionId: state.sessionId };
};

const finishTurn = (exit: CliExit, state: OpencodeState, input: TurnInput): TurnResult => {
  const forced = quietAfterQuota(exit, state) ?? processResult(exit, 'opencode', input.watchdogMs, state.sessionId);
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
    onStderr: (line) => input.onLog({ text: `stderr: ${line}` }),
    onLine: (line) => {
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
  const check = (): Promise<Availability> => versionOf(bin, config.env ?? process.env);
  return { name: 'opencode', bin, check, startTurn: (input) => startOpencodeTurn(bin, config, input) };
};
