// opencode's tool calls as activity: `tool_use` parts, printed once the call has finished
// (state.status completed or error) with its own start and end times. A shell command that
// exits non-zero is still `completed` for opencode; its exit code (metadata.exit) makes it an error.
import { describeCommand, describeFile, describeMcp, text, type ActivityReport, type Described } from './activity.js';

interface ToolState {
  readonly status?: string;
  readonly input?: Record<string, unknown>;
  readonly output?: unknown;
  readonly error?: unknown;
  readonly title?: unknown;
  readonly metadata?: { readonly exit?: unknown };
  readonly time?: { readonly start?: unknown; readonly end?: unknown };
}

const FILE_TOOLS: Record<string, 'read' | 'edit' | 'write'> = { read: 'read', write: 'write', edit: 'edit', multiedit: 'edit', patch: 'edit' };
const SEARCH_TOOLS: Record<string, string> = { grep: 'pattern', glob: 'pattern', list: 'path', websearch: 'query', codesearch: 'query', webfetch: 'url' };
const OTHER_TOOLS = new Set(['task', 'todowrite', 'todoread', 'skill', 'lsp', 'invalid']);

/** What one of opencode's tools did, from its name and input. */
export const describeOpencodeTool = (tool: string, st: ToolState, cwd: string): Described => {
  const input = st.input ?? {};
  const title = text(st.title);
  const file = FILE_TOOLS[tool];
  if (file) return describeFile(file, input.filePath, cwd, title || tool);
  if (tool === 'bash') return describeCommand(text(input.command), cwd);
  const searchKey = SEARCH_TOOLS[tool];
  if (searchKey) return { kind: 'search', title: describeCommand(text(input[searchKey]) || title || tool, cwd).title };
  if (OTHER_TOOLS.has(tool)) return { kind: 'other', title: title ? `${tool}: ${title}` : tool };
  // MCP tools are named <server>_<tool>
  const sep = tool.indexOf('_');
  return sep > 0 ? describeMcp(tool.slice(0, sep), tool.slice(sep + 1), input) : { kind: 'other', title: title || tool };
};

const iso = (ms: unknown): { at?: string } => (typeof ms === 'number' && Number.isFinite(ms) ? { at: new Date(ms).toISOString() } : {});

const ended = (callId: string, st: ToolState): ActivityReport => {
  const exit = typeof st.metadata?.exit === 'number' ? st.metadata.exit : undefined;
  const error = st.status === 'error' || (exit !== undefined && exit !== 0);
  const output = st.status === 'error' ? text(st.error) || JSON.stringify(st.error ?? '') : text(st.output);
  return { phase: 'ended', callId, status: error ? 'error' : 'ok', output, ...(exit !== undefined ? { exitCode: exit } : {}), ...iso(st.time?.end) };
};

/** The activity reports in one parsed `opencode run --format json` line. */
export const opencodeActivity = (ev: Record<string, unknown>, cwd: string): ActivityReport[] => {
  if (ev.type !== 'tool_use') return [];
  const part = (ev.part ?? {}) as { tool?: unknown; callID?: unknown; state?: ToolState };
  const tool = text(part.tool);
  const callId = text(part.callID);
  if (!tool || !callId) return [];
  const st = part.state ?? {};
  const start: ActivityReport = { phase: 'started', callId, tool, ...describeOpencodeTool(tool, st, cwd), ...iso(st.time?.start) };
  return st.status === 'completed' || st.status === 'error' ? [start, ended(callId, st)] : [start];
};
