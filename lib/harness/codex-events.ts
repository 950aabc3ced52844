// Reading `codex exec --json` lines: thread.started (the session), item.* (messages, commands,
// file changes, MCP calls), turn.completed / turn.failed (the end of the turn), error.
import type { TurnResult } from './adapter.js';
import { classifyText, clip } from './classify.js';
import { ownUsage } from './session-totals.js';

export interface CodexState {
  /** what codex reported as the resumed thread's token totals at the end of its last recorded turn */
  readonly usageBefore?: Readonly<Record<string, number>>;
  sessionId?: string;
  lastMessage?: string;
  completed?: { usage: Record<string, number> };
  failed?: string;
  lastError?: string;
  /** the `error` codex printed last, while it has printed nothing since ("Reconnecting... 1/5 (…)") */
  retrying?: string;
}

export interface CodexSinks {
  readonly onMessage: (text: string) => void;
  readonly onSession: (id: string) => void;
}

type Item = Record<string, unknown> & { type?: string };

const short = (v: unknown, max = 200): string =>
  clip(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), max).replace(/\s+/g, ' ');

const renderItem = (phase: string, item: Item): string => {
  switch (item.type) {
    case 'agent_message':
      return `assistant: ${short(item.text)}`;
    case 'reasoning':
      return `reasoning: ${short(item.text)}`;
    case 'command_execution':
      return `command ${phase} ${short(item.command)}${item.exit_code !== undefined && item.exit_code !== null ? ` exit=${String(item.exit_code)}` : ''}`;
    case 'file_change':
      return `file change ${phase} ${short((item.changes as { path?: string; kind?: string }[] | undefined)?.map((c) => `${c.kind} ${c.path}`))}`;
    case 'mcp_tool_call':
      return `tool ${String(item.server)}.${String(item.tool)} ${phase}${item.error ? ` error=${short(item.error)}` : ''}`;
    default:
      return `${String(item.type ?? 'item')} ${phase} ${short(item, 300)}`;
  }
};

const numbers = (o: unknown): Record<string, number> =>
  Object.fromEntries(Object.entries((o ?? {}) as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number'));

const messageOf = (ev: Record<string, unknown>): string =>
  String((ev.error as { message?: unknown } | undefined)?.message ?? ev.message ?? 'unknown error');

export const readCodexEvent = (ev: Record<string, unknown>, state: CodexState, sinks: CodexSinks): string => {
  const type = String(ev.type ?? '');
  state.retrying = undefined;
  if (type === 'thread.started' && typeof ev.thread_id === 'string') {
    state.sessionId = ev.thread_id;
    sinks.onSession(ev.thread_id);
    return `thread ${ev.thread_id}`;
  }
  if (type.startsWith('item.')) {
    const item = (ev.item ?? {}) as Item;
    if (type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') {
      state.lastMessage = item.text;
      sinks.onMessage(item.text);
    }
    return renderItem(type.slice(5), item);
  }
  if (type === 'turn.started') return 'turn started';
  if (type === 'turn.completed') {
    state.completed = { usage: numbers(ev.usage) };
    return `turn completed ${short(ev.usage)}`;
  }
  if (type === 'turn.failed') {
    state.failed = messageOf(ev);
    return `turn failed: ${short(state.failed, 500)}`;
  }
  if (type === 'error') {
    state.lastError = state.retrying = messageOf(ev);
    return `error: ${short(state.lastError, 500)}`;
  }
  return short(ev, 300);
};

export const codexTurnResult = (state: CodexState): TurnResult | undefined => {
  const base = { sessionId: state.sessionId };
  if (state.failed !== undefined) {
    return { ...base, outcome: 'failure', failure: classifyText(state.failed), summary: clip(state.failed) };
  }
  if (state.completed) {
    // turn.completed's usage is the thread's running total (a resumed thread's earlier turns included)
    const total = state.completed.usage;
    const usage = ownUsage(total, state.usageBefore);
    return { ...base, outcome: 'success', summary: clip(state.lastMessage ?? 'codex finished'), usage, sessionTotals: { usage: total } };
  }
  return undefined;
};
