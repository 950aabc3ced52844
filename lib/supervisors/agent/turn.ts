// One supervisor turn: one turn of a harness CLI through the engine's own adapters, in the
// supervisor's scratch folder, with the svc tool endpoint scoped by its key as the CLI's `svc`
// MCP server (every tool of it allowed: the endpoint enforces the supervisor's rules itself).
import type { HarnessAdapter, TurnResult } from '../../harness/adapter.js';
import type { SessionTotals } from '../../../domain/harness.js';
import type { HarnessName } from '../../../domain/workflow.js';
import { SUPERVISOR_GUIDE } from './prompt.js';
import { scratchDir } from './scratch.js';

export interface Endpoint {
  readonly url: string;
  readonly token: string;
}

export interface SupervisorTurnDeps {
  readonly home: string;
  readonly harness: (name: HarnessName) => HarnessAdapter | undefined;
  /** `<base>/mcp?supervisor=<key>` and the endpoint's bearer token */
  readonly endpoint: (key: string) => Endpoint;
  readonly watchdogMs: () => number;
  /** the CLI's output lines, for the supervisor's log */
  readonly onLog?: (supervisorId: string, text: string) => void;
}

export interface SupervisorTurnRequest {
  readonly supervisorId: string;
  readonly key: string;
  readonly turnId: string;
  readonly harness: HarnessName;
  readonly model?: string;
  readonly prompt: string;
  readonly resumeSession?: string;
  /** what the CLI last reported as resumeSession's running totals (the turn reports its own share) */
  readonly sessionTotals?: SessionTotals;
  readonly signal: AbortSignal;
  /** each reply the model writes, as it writes it (so a crash loses none already written) */
  readonly onReply?: (text: string) => void;
}

export interface SupervisorTurnResult extends TurnResult {
  readonly harness: HarnessName;
  readonly replies: readonly string[];
}

/** `<base>/mcp?supervisor=<key>`: the key is URL-encoded, the token travels as a header. */
export const supervisorEndpointUrl = (baseUrl: string, key: string): string =>
  `${baseUrl.replace(/\/$/, '')}/mcp?supervisor=${encodeURIComponent(key)}`;

const notConfigured = (harness: HarnessName): SupervisorTurnResult => ({
  harness, replies: [], outcome: 'failure', failure: 'unavailable', summary: `harness ${harness} is not configured`,
});

export const runSupervisorTurn = async (deps: SupervisorTurnDeps, req: SupervisorTurnRequest): Promise<SupervisorTurnResult> => {
  const adapter = deps.harness(req.harness);
  if (!adapter) return notConfigured(req.harness);
  const replies: string[] = [];
  const endpoint = deps.endpoint(req.key);
  const turn = adapter.startTurn({
    runId: `supervisor-${req.supervisorId}`, stepId: req.turnId,
    cwd: scratchDir(deps.home, req.supervisorId),
    prompt: req.prompt, systemPrompt: SUPERVISOR_GUIDE,
    ...(req.model ? { model: req.model } : {}),
    // a supervisor acts through the endpoint only: no file edits in its scratch folder
    tools: 'read-only',
    ...(req.resumeSession ? { resumeSession: req.resumeSession, ...(req.sessionTotals ? { sessionTotals: req.sessionTotals } : {}) } : {}),
    runTools: endpoint, allowAllServerTools: true,
    env: {}, watchdogMs: deps.watchdogMs(), signal: req.signal,
    onLog: (line) => deps.onLog?.(req.supervisorId, line.text),
    onMessage: (text) => (replies.push(text), req.onReply?.(text)),
  });
  const r = await turn.result.catch((err: unknown): TurnResult => ({ outcome: 'failure', summary: `the harness failed: ${String(err)}`, failure: 'error' }));
  return { ...r, harness: req.harness, replies };
};
