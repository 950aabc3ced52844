import type { HarnessName, ToolAccess } from '../../domain/workflow.js';
import type { ActivityReport } from './activity.js';
import type { GroupLeader } from './process-group.js';
import type { Availability, SessionTotals } from '../../domain/harness.js';
import type { SpawnWrap } from './process.js';

export type { GroupLeader } from './process-group.js';

// One adapter per agent CLI. The engine starts one turn per agent step; the adapter spawns the CLI
// headless in the worktree, streams its output back, and ends with the CLI's own end-of-turn result.
// The outcome an agent reports through the in-run tool server (report_outcome) is recorded by the
// engine separately; decideFinishStep (commands/engine-steps.ts) lets it win over `TurnResult.outcome`.

export interface AgentLogLine {
  readonly text: string;
}

export interface TurnInput {
  readonly runId: string;
  readonly stepId: string;
  /** the run's worktree for the project's primary folder */
  readonly cwd: string;
  readonly prompt: string;
  /** persona prompt, appended as a system prompt where the CLI allows it */
  readonly systemPrompt?: string;
  readonly model?: string;
  readonly tools: ToolAccess;
  /** continue this session/thread with `prompt` as the next user message */
  readonly resumeSession?: string;
  /** with resumeSession: continue a copy of the session under a new id, leaving the original as it was (a fork; claude only) */
  readonly forkSession?: boolean;
  /** with resumeSession: the running totals the CLI reported at the end of that session's last recorded turn */
  readonly sessionTotals?: SessionTotals;
  /** the run's own tool server (ask_question, report_outcome): MCP over Streamable HTTP */
  readonly runTools: { readonly url: string; readonly token: string };
  /**
   * allow every tool the `svc` MCP server offers, not only the in-run pair: a supervisor turn,
   * whose server is `/mcp?supervisor=<key>` and enforces its own rules (default: the in-run pair)
   */
  readonly allowAllServerTools?: boolean;
  /** extra environment for the CLI process (merged over process.env) */
  readonly env: Readonly<Record<string, string>>;
  /** end the turn when the CLI prints nothing for this long */
  readonly watchdogMs: number;
  /** aborted when the run is paused or aborted: kill the CLI and resolve with outcome 'interrupted' */
  readonly signal: AbortSignal;
  /** every output line, raw or lightly formatted, for the run's log */
  readonly onLog: (line: AgentLogLine) => void;
  /** each tool call as it starts and as it ends (lib/harness/activity.ts), after the log line that told of it */
  readonly onActivity?: (report: ActivityReport) => void;
  /** the agent's chat messages, for the run's thread */
  readonly onMessage: (text: string) => void;
  /** the session/thread id as soon as the CLI reveals it */
  readonly onSession?: (sessionId: string) => void;
  /**
   * the CLI's process group (its leader's pid and start time) as soon as it is spawned, so a
   * restarted server can end a group a crash left behind before it runs the step again
   */
  readonly onProcess?: (leader: GroupLeader) => void;
  /** the engine's clock: a reset named as a time of day ("resets 3pm") is the next one after it */
  readonly now?: () => Date;
  /**
   * svc's sandbox around the CLI (lib/sandbox); the CLI's own sandbox is then switched off where
   * ours stands in for it (codex). Absent: the CLI runs as the user, its own sandbox as it is.
   */
  readonly sandbox?: SpawnWrap;
}

export type TurnFailure = 'quota' | 'unavailable' | 'watchdog' | 'error';

export interface TurnResult {
  readonly outcome: 'success' | 'failure' | 'interrupted';
  readonly summary: string;
  readonly sessionId?: string;
  /** this turn's own cost, never the session's running total */
  readonly costUsd?: number;
  /** this turn's own tokens, never the session's running total */
  readonly usage?: Readonly<Record<string, number>>;
  /** the running totals the CLI reported, when it reports running totals */
  readonly sessionTotals?: SessionTotals;
  /** the model the turn ran on as the CLI recorded it, when svc named none (codex: its rollout file) */
  readonly model?: string;
  readonly failure?: TurnFailure;
  /** with failure 'quota': what the CLI said (raw, capped) and when it said the window resets */
  readonly quota?: TurnQuota;
}

export interface TurnQuota {
  readonly resetsAt?: string;
  readonly evidence: string;
}

export interface Turn {
  readonly result: Promise<TurnResult>;
  /** deliver a user message into the turn in flight; false when this CLI cannot take one mid-turn */
  send(text: string): boolean;
  /**
   * Suspend (true) or resume (false) the silence watchdog, e.g. while an ask_question call waits
   * for a person: codex and opencode print nothing during that wait. Calls nest (counted).
   * claude and codex hold it by themselves while their in-run MCP call is open; opencode
   * reports a tool call only once it has finished, so there the engine must hold it.
   */
  holdWatchdog?(held: boolean): void;
}

export interface HarnessAdapter {
  readonly name: HarnessName;
  /** the binary it runs (path or bare name on PATH); absent for stand-ins that run none */
  readonly bin?: string;
  check(): Promise<Availability>;
  startTurn(input: TurnInput): Turn;
}
