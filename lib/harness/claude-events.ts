// Reading claude's stream-json output: each line updates what we know of the turn (session,
// quota signals, the end-of-turn result) and yields a one-line rendering for the run log.
import type { TurnResult } from './adapter.js';
import { classifyStatus, classifyText, clip } from './classify.js';
import { ownCost } from './session-totals.js';

interface Block {
  readonly type?: string;
  readonly text?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly content?: unknown;
}

export interface ClaudeState {
  /** what claude reported as the resumed session's total cost at the end of its last recorded turn */
  readonly costBefore?: number;
  sessionId?: string;
  result?: Record<string, unknown>;
  quotaRejected?: { resetsAt?: unknown };
}

export interface ClaudeSinks {
  readonly onMessage: (text: string) => void;
  readonly onSession: (id: string) => void;
}

const blocksOf = (msg: unknown): Block[] => {
  const content = (msg as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
};

const short = (v: unknown, max = 200): string => clip(typeof v === 'string' ? v : JSON.stringify(v) ?? '', max).replace(/\s+/g, ' ');

const renderBlocks = (role: string, blocks: Block[]): string =>
  blocks
    .map((b) => {
      if (b.type === 'text') return `${role}: ${short(b.text)}`;
      if (b.type === 'tool_use') return `tool ${b.name} ${short(b.input)}`;
      if (b.type === 'tool_result') return `tool result: ${short(b.content)}`;
      return `${role} ${b.type ?? '?'}`;
    })
    .join(' · ');

/** Apply one parsed line; returns its log rendering. */
export const readClaudeEvent = (ev: Record<string, unknown>, state: ClaudeState, sinks: ClaudeSinks): string => {
  const sid = typeof ev.session_id === 'string' ? ev.session_id : undefined;
  if (sid && sid !== state.sessionId) {
    state.sessionId = sid;
    sinks.onSession(sid);
  }
  switch (ev.type) {
    case 'system': {
      const servers = (ev.mcp_servers as { name?: string; status?: string }[] | undefined) ?? [];
      const mcp = servers.map((s) => `${s.name}:${s.status}`).join(',');
      return `system ${String(ev.subtype ?? '')} model=${String(ev.model ?? '')}${mcp ? ` mcp=${mcp}` : ''}`;
    }
    case 'assistant': {
      const blocks = blocksOf(ev.message);
      for (const b of blocks) if (b.type === 'text' && b.text?.trim()) sinks.onMessage(b.text);
      return renderBlocks('assistant', blocks);
    }
    case 'user':
      return renderBlocks('user', blocksOf(ev.message));
    case 'rate_limit_event': {
      const info = (ev.rate_limit_info ?? {}) as { status?: string; resetsAt?: unknown };
      if (info.status === 'rejected') state.quotaRejected = { resetsAt: info.resetsAt };
      return `rate limit ${info.status ?? '?'}${info.resetsAt ? ` resets ${String(info.resetsAt)}` : ''}`;
    }
    case 'result':
      state.result = ev;
      return `result ${String(ev.subtype)}${ev.is_error ? ' (error)' : ''}: ${short(ev.result ?? '')}`;
    default:
      return `${String(ev.type ?? 'line')} ${short(ev, 300)}`;
  }
};

const numbers = (o: unknown): Record<string, number> =>
  Object.fromEntries(Object.entries((o ?? {}) as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number'));

// `total_cost_usd` is the session's running total (a resumed session's earlier turns included);
// `usage` counts this process's requests only. The turn's own cost is the difference.
const costOf = (r: Record<string, unknown>, before: number | undefined): Pick<TurnResult, 'costUsd' | 'sessionTotals'> => {
  const total = r.total_cost_usd;
  return typeof total === 'number' ? { costUsd: ownCost(total, before), sessionTotals: { costUsd: total } } : {};
};

/** The turn's result from claude's own `result` line (undefined when it never printed one). */
export const claudeTurnResult = (state: ClaudeState): TurnResult | undefined => {
  const r = state.result;
  if (!r) return undefined;
  const text = typeof r.result === 'string' ? r.result : '';
  const base = { sessionId: state.sessionId, ...costOf(r, state.costBefore), usage: numbers(r.usage) };
  if (r.subtype === 'success' && !r.is_error) return { ...base, outcome: 'success', summary: clip(text || 'claude finished') };
  const status = typeof r.api_error_status === 'number' ? r.api_error_status : undefined;
  const failure = state.quotaRejected ? 'quota' : (classifyStatus(status) ?? classifyText(text));
  return { ...base, outcome: 'failure', failure, summary: clip(text || `claude ended with ${String(r.subtype)}`) };
};
