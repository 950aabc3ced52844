// claude (Claude Code) headless: stream-json in and out. The prompt and any mid-turn messages
// are user lines on stdin; stdin is closed once claude prints its `result`, and the turn ends
// when the process exits (a message queued just before the result then still gets its answer).
import type { HarnessAdapter, Turn, TurnInput, TurnResult } from './adapter.js';
import type { Availability } from '../../domain/harness.js';
import { claudeArgs, claudeUserLine } from './claude-args.js';
import { claudeActivity } from './claude-activity.js';
import { claudeTurnResult, readClaudeEvent, type ClaudeState } from './claude-events.js';
import { classifyText, clip } from './classify.js';
import { askCli, binFor, lastLines, MCP_TOOL_TIMEOUT_MS, processResult, RUN_TOKEN_ENV, turnEnv, versionOf, parseJsonLine, type HarnessConfig } from './common.js';
import { runCli, type CliExit } from './process.js';
import { withQuota } from './quota.js';

// A quota failure carries what claude said and the reset it named (its rate_limit_event's resetsAt first).
const finish = (exit: CliExit, state: ClaudeState, input: TurnInput): TurnResult => {
  const r = finishTurn(exit, state, input);
  const words = [state.quotaRejected ? 'rate_limit_event: rejected' : '', r.summary].filter(Boolean).join(' · ');
  return withQuota(r, words, input.now?.() ?? new Date(), { resetsAt: state.quotaRejected?.resetsAt });
};

const finishTurn = (exit: CliExit, state: ClaudeState, input: TurnInput): TurnResult => {
  const forced = processResult(exit, 'claude', input.watchdogMs, state.sessionId);
  if (forced) return forced;
  const fromResult = claudeTurnResult(state);
  if (fromResult) return fromResult;
  const stderr = exit.kind === 'exited' ? exit.stderr : '';
  const code = exit.kind === 'exited' ? exit.code : null;
  const summary = clip(`claude exited (${code}) without a result: ${lastLines(stderr) || 'no output'}`);
  return { outcome: 'failure', failure: state.quotaRejected ? 'quota' : classifyText(stderr), summary, sessionId: state.sessionId };
};

// While claude waits on our own tool server (ask_question held open for a person) the turn is
// not hung: hold the watchdog from the tool_use to its tool_result. (claude also prints 30 s
// heartbeats, but a shorter watchdog would still fire.)
const holdDuringRunTool = (ev: Record<string, unknown>, open: Set<string>, hold: (held: boolean) => void): void => {
  const content = (ev.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return;
  for (const b of content as { type?: string; id?: string; name?: string; tool_use_id?: string }[]) {
    if (ev.type === 'assistant' && b.type === 'tool_use' && b.id && b.name?.startsWith('mcp__svc__')) (open.add(b.id), hold(true));
    if (ev.type === 'user' && b.type === 'tool_result' && b.tool_use_id && open.delete(b.tool_use_id)) hold(false);
  }
};

export const startClaudeTurn = (bin: string, config: HarnessConfig, input: TurnInput): Turn => {
  const before = input.resumeSession ? input.sessionTotals?.costUsd : undefined;
  const state: ClaudeState = before === undefined ? {} : { costBefore: before };
  const env = turnEnv(config, input, { [RUN_TOKEN_ENV]: input.runTools.token, MCP_TOOL_TIMEOUT: String(MCP_TOOL_TIMEOUT_MS) });
  let open = true;
  const runToolCalls = new Set<string>();
  const cli = runCli({
    bin,
    args: claudeArgs(input),
    cwd: input.cwd,
    env,
    stdin: 'pipe',
    watchdogMs: input.watchdogMs,
    signal: input.signal,
    ...(input.onProcess ? { onStarted: input.onProcess } : {}),
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    onStderr: (line) => input.onLog({ text: `stderr: ${line}` }),
    onLine: (line) => {
      const ev = parseJsonLine(line);
      if (!ev) return input.onLog({ text: line });
      holdDuringRunTool(ev, runToolCalls, (held) => cli.hold(held));
      input.onLog({ text: readClaudeEvent(ev, state, { onMessage: input.onMessage, onSession: (id) => input.onSession?.(id) }) });
      for (const a of claudeActivity(ev, input.cwd)) input.onActivity?.(a);
      if (ev.type === 'result') close();
    },
  });
  const stdin = cli.child.stdin;
  const close = (): void => {
    if (open) (open = false), stdin?.end();
  };
  stdin?.on('error', () => (open = false)); // EPIPE when claude died first: the exit tells the story
  const write = (text: string): boolean => {
    if (!open || !stdin || stdin.destroyed) return false;
    stdin.write(claudeUserLine(text));
    return true;
  };
  write(input.prompt);
  const result = cli.exit.then((exit) => ((open = false), finish(exit, state, input)));
  return { result, send: write, holdWatchdog: cli.hold };
};

// `claude auth status` answers from local state (no network): exit 0 and loggedIn true, else 1.
const checkClaude = async (bin: string, config: HarnessConfig): Promise<Availability> => {
  const env = config.env ?? process.env;
  const version = await versionOf(bin, env, undefined, config.versionCache);
  if (version._tag !== 'Ready') return version;
  const auth = await askCli(bin, ['auth', 'status'], env);
  if (auth.code === 0) return version;
  const loggedIn = /"loggedIn":\s*true/.test(auth.stdout);
  return loggedIn ? version : { _tag: 'NotLoggedIn', detail: 'claude auth status: not logged in' };
};

export const claudeAdapter = (config: HarnessConfig = {}): HarnessAdapter => {
  const bin = binFor('claude', config);
  return { name: 'claude', bin, check: () => checkClaude(bin, config), startTurn: (input) => startClaudeTurn(bin, config, input) };
};
