// codex headless: `codex exec --json`, prompt as the last argument and stdin ignored (piped
// stdin would be appended to the prompt). It cannot take a message mid-turn.
import type { HarnessAdapter, Turn, TurnInput, TurnResult } from './adapter.js';
import type { Availability } from '../../domain/harness.js';
import { classifyText, clip } from './classify.js';
import { codexArgs } from './codex-args.js';
import { codexTurnModel } from './codex-model.js';
import { codexActivity } from './codex-activity.js';
import { codexTurnResult, readCodexEvent, type CodexState } from './codex-events.js';
import { askCli, binFor, lastLines, processResult, quietAfterQuota, RUN_TOKEN_ENV, turnEnv, versionOf, parseJsonLine, type HarnessConfig } from './common.js';
import { runCli, type CliExit } from './process.js';
import { withQuota } from './quota.js';
import { localZoneOf } from './quota-clock.js';

// A quota failure carries codex's own words ("… try again at 3:05 PM") and the reset they name,
// read in the zone codex wrote them in: its local time (TZ of the environment it ran with).
// With no model named, the one codex chose is read from its session file, so the turn is priced
// by that model's row in the Prices table (a '*' row is the fallback).
const finish = (exit: CliExit, state: CodexState, input: TurnInput, env: NodeJS.ProcessEnv): TurnResult => {
  const r = finishTurn(exit, state, input);
  const model = input.model ? undefined : codexTurnModel(env, r.sessionId);
  return withQuota(model ? { ...r, model } : r, r.summary, input.now?.() ?? new Date(), { zone: localZoneOf(env) });
};

const finishTurn = (exit: CliExit, state: CodexState, input: TurnInput): TurnResult => {
  const forced = quietAfterQuota(exit, 'codex', state.retrying, state.sessionId) ?? processResult(exit, 'codex', input.watchdogMs, state.sessionId);
  if (forced) return forced;
  const fromEvents = codexTurnResult(state);
  if (fromEvents) return fromEvents;
  const stderr = exit.kind === 'exited' ? exit.stderr : '';
  const why = state.lastError ?? (lastLines(stderr) || 'no output');
  const code = exit.kind === 'exited' ? exit.code : null;
  return { outcome: 'failure', failure: classifyText(why), summary: clip(`codex exited (${code}) without finishing the turn: ${why}`), sessionId: state.sessionId };
};

// codex prints nothing while an MCP call is open; a call to our own tool server (ask_question
// waiting for a person) is not a hang, so the watchdog is held for its duration.
const holdDuringRunTool = (ev: Record<string, unknown>, hold: (held: boolean) => void): void => {
  const item = ev.item as { type?: string; server?: string } | undefined;
  if (item?.type !== 'mcp_tool_call' || item.server !== 'svc') return;
  if (ev.type === 'item.started') hold(true);
  if (ev.type === 'item.completed') hold(false);
};

export const startCodexTurn = (bin: string, config: HarnessConfig, input: TurnInput): Turn => {
  const before = input.resumeSession ? input.sessionTotals?.usage : undefined;
  const state: CodexState = before === undefined ? {} : { usageBefore: before };
  const env = turnEnv(config, input, { [RUN_TOKEN_ENV]: input.runTools.token });
  const cli = runCli({
    bin,
    args: codexArgs(input),
    cwd: input.cwd,
    env,
    stdin: 'ignore',
    watchdogMs: input.watchdogMs,
    signal: input.signal,
    ...(input.onProcess ? { onStarted: input.onProcess } : {}),
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    onStderr: (line) => input.onLog({ text: `stderr: ${line}` }),
    onLine: (line) => {
      const ev = parseJsonLine(line);
      if (ev) holdDuringRunTool(ev, (held) => cli.hold(held));
      input.onLog({ text: ev ? readCodexEvent(ev, state, { onMessage: input.onMessage, onSession: (id) => input.onSession?.(id) }) : line });
      if (ev) for (const a of codexActivity(ev, input.cwd)) input.onActivity?.(a);
    },
  });
  return { result: cli.exit.then((exit) => finish(exit, state, input, env)), send: () => false, holdWatchdog: (held) => cli.hold(held) };
};

// `codex login status` answers from $CODEX_HOME (no network): exit 0 when logged in. An API key
// in the environment (OPENAI_API_KEY / CODEX_API_KEY) also lets exec run, so it counts as ready.
const checkCodex = async (bin: string, config: HarnessConfig): Promise<Availability> => {
  const env = config.env ?? process.env;
  const version = await versionOf(bin, env, undefined, config.versionCache);
  if (version._tag !== 'Ready') return version;
  if (env.OPENAI_API_KEY || env.CODEX_API_KEY) return version;
  const status = await askCli(bin, ['login', 'status'], env);
  if (status.code === 0) return version;
  return { _tag: 'NotLoggedIn', detail: `codex login status: ${lastLines(status.stdout || status.stderr, 1) || 'not logged in'}` };
};

export const codexAdapter = (config: HarnessConfig = {}): HarnessAdapter => {
  const bin = binFor('codex', config);
  return { name: 'codex', bin, check: () => checkCodex(bin, config), startTurn: (input) => startCodexTurn(bin, config, input) };
};
