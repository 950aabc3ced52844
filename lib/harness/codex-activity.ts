// codex's tool calls as activity: item.started / item.completed of command_execution, file_change
// (one row per changed file), mcp_tool_call and web_search items. A command fails by its exit code.
import { describeCommand, describeFile, describeMcp, outputText, relativePath, text, type ActivityReport, type Described } from './activity.js';

type Item = Record<string, unknown> & { readonly id?: string; readonly type?: string; readonly status?: string };

const describeItem = (item: Item, cwd: string): Described | null => {
  switch (item.type) {
    case 'command_execution': return describeCommand(text(item.command), cwd);
    case 'mcp_tool_call': return describeMcp(text(item.server), text(item.tool), item.arguments);
    case 'web_search': return { kind: 'search', title: text(item.query) || 'web search' };
    default: return null;
  }
};

const failed = (item: Item): boolean => {
  if (item.status === 'failed' || item.error) return true;
  return typeof item.exit_code === 'number' && item.exit_code !== 0;
};

const outputOf = (item: Item): string => {
  if (item.type === 'command_execution') return text(item.aggregated_output);
  if (item.type === 'mcp_tool_call') {
    const error = (item.error as { message?: unknown } | undefined)?.message;
    return typeof error === 'string' ? error : outputText(item.result);
  }
  return '';
};

interface Change { readonly path?: string; readonly kind?: string }

const changeRows = (phase: 'started' | 'ended', item: Item, cwd: string): ActivityReport[] => {
  const changes = Array.isArray(item.changes) ? (item.changes as Change[]) : [];
  return changes.flatMap((c, i): ActivityReport[] => {
    const callId = `${item.id}#${i}`;
    const d = describeFile(c.kind === 'add' ? 'write' : 'edit', c.path, cwd, 'file change');
    const start: ActivityReport = { phase: 'started', callId, tool: 'apply_patch', ...d, ...(c.kind === 'delete' ? { title: `${d.title} (deleted)` } : {}) };
    if (phase === 'started') return [start];
    return [start, { phase, callId, status: failed(item) ? 'error' : 'ok', output: `${c.kind ?? 'change'} ${relativePath(c.path ?? '', cwd)}` }];
  });
};

/** The activity reports in one parsed `codex exec --json` line. */
export const codexActivity = (ev: Record<string, unknown>, cwd: string): ActivityReport[] => {
  const phase = ev.type === 'item.started' ? 'started' : ev.type === 'item.completed' ? 'ended' : null;
  const item = (ev.item ?? {}) as Item;
  if (!phase || !item.id) return [];
  if (item.type === 'file_change') return changeRows(phase, item, cwd);
  const d = describeItem(item, cwd);
  if (!d) return [];
  // a completed item never seen starting (web_search may come whole): start it first
  const start: ActivityReport = { phase: 'started', callId: item.id, tool: String(item.type), ...d };
  if (phase === 'started') return [start];
  const exit = typeof item.exit_code === 'number' ? { exitCode: item.exit_code } : {};
  return [start, { phase: 'ended', callId: item.id, status: failed(item) ? 'error' : 'ok', output: outputOf(item), ...exit }];
};
