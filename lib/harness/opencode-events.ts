// Reading `opencode run --format json` lines: {type, timestamp, sessionID, part} with types
// step_start, text, reasoning, tool_use, step_finish (tokens, cost), error. Each step_finish
// counts one model request of this process only (also with `-s <session>`), so their sum is the
// turn's own cost and usage: no session totals to subtract (lib/harness/session-totals.ts).
import type { TurnResult } from './adapter.js';
import { classifyStatus, classifyText, clip } from './classify.js';

export interface OpencodeState {
  sessionId?: string;
  lastText?: string;
  /** why the last model step ended: 'stop' is a finished answer, 'tool-calls' wanted to go on */
  lastFinish?: string;
  cost: number;
  usage: Record<string, number>;
  /** headers: the provider's response headers, which opencode passes on with an API error (reset times) */
  error?: { message: string; status?: number; headers?: Record<string, unknown> };
  /** the failed request opencode logged last, while it has printed nothing since (it may be retrying) */
  retrying?: string;
}

export interface OpencodeSinks {
  readonly onMessage: (text: string) => void;
  readonly onSession: (id: string) => void;
}

const short = (v: unknown, max = 200): string =>
  clip(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), max).replace(/\s+/g, ' ');

const addTokens = (state: OpencodeState, tokens: Record<string, unknown> | undefined): void => {
  const cache = (tokens?.cache ?? {}) as Record<string, unknown>;
  const flat: Record<string, unknown> = { input_tokens: tokens?.input, output_tokens: tokens?.output, reasoning_tokens: tokens?.reasoning, cache_read_tokens: cache.read, cache_write_tokens: cache.write };
  for (const [k, v] of Object.entries(flat)) if (typeof v === 'number') state.usage[k] = (state.usage[k] ?? 0) + v;
};

const readError = (ev: Record<string, unknown>): NonNullable<OpencodeState['error']> => {
  const err = (ev.error ?? {}) as { name?: string; data?: { message?: string; statusCode?: number; responseHeaders?: unknown } };
  const message = `${err.name ?? 'Error'}: ${err.data?.message ?? short(err)}`;
  const headers = err.data?.responseHeaders && typeof err.data.responseHeaders === 'object' ? { headers: err.data.responseHeaders as Record<string, unknown> } : {};
  return { message, status: typeof err.data?.statusCode === 'number' ? err.data.statusCode : undefined, ...headers };
};

export const readOpencodeEvent = (ev: Record<string, unknown>, state: OpencodeState, sinks: OpencodeSinks): string => {
  if (typeof ev.sessionID === 'string' && ev.sessionID !== state.sessionId) {
    state.sessionId = ev.sessionID;
    sinks.onSession(ev.sessionID);
  }
  const part = (ev.part ?? {}) as Record<string, unknown>;
  switch (ev.type) {
    case 'text': {
      const text = String(part.text ?? '');
      if (text.trim()) (state.lastText = text), sinks.onMessage(text);
      return `assistant: ${short(text)}`;
    }
    case 'reasoning':
      return `reasoning: ${short(part.text)}`;
    case 'tool_use': {
      const st = (part.state ?? {}) as Record<string, unknown>;
      return `tool ${String(part.tool)} ${String(st.status ?? '')} ${short(st.input)}${st.error ? ` error=${short(st.error)}` : ''}`;
    }
    case 'step_start':
      return 'step start';
    case 'step_finish':
      addTokens(state, part.tokens as Record<string, unknown> | undefined);
      if (typeof part.cost === 'number') state.cost += part.cost;
      state.lastFinish = String(part.reason ?? '');
      return `step finish ${String(part.reason ?? '')} ${short(part.tokens)}`;
    case 'error':
      state.error = readError(ev);
      return `error: ${short(state.error.message, 500)}`;
    default:
      return short(ev, 300);
  }
};

export const opencodeTurnResult = (state: OpencodeState, exitCode: number | null): TurnResult => {
  const base = { sessionId: state.sessionId, costUsd: state.cost, usage: state.usage };
  if (state.error) {
    const failure = classifyStatus(state.error.status) ?? classifyText(state.error.message);
    return { ...base, outcome: 'failure', failure, summary: clip(state.error.message) };
  }
  if (exitCode !== 0) return { ...base, outcome: 'failure', failure: 'error', summary: `opencode exited with ${exitCode}` };
  // opencode exits 0 when a refused permission stops the session mid-way: a last step that still
  // wanted its tool calls answered is a turn that did not finish.
  if (state.lastFinish === 'tool-calls') return { ...base, outcome: 'failure', failure: 'error', summary: `opencode stopped before the agent finished${state.lastText ? ` (last said: ${clip(state.lastText, 200)})` : ''}` };
  return { ...base, outcome: 'success', summary: clip(state.lastText ?? 'opencode finished') };
};
