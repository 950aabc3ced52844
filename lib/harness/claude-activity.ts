// claude's tool calls as activity: an assistant line's tool_use blocks start calls, a user line's
// tool_result blocks end them (is_error marks a failure: a command's non-zero exit, a refused tool).
import { describeCommand, describeFile, describeMcp, outputText, text, type ActivityReport, type Described } from './activity.js';

interface Block {
  readonly type?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: Record<string, unknown>;
  readonly tool_use_id?: string;
  readonly content?: unknown;
  readonly is_error?: boolean;
}

const FILE_TOOLS: Record<string, 'read' | 'edit' | 'write'> = { Read: 'read', Write: 'write', Edit: 'edit', MultiEdit: 'edit', NotebookEdit: 'edit' };
const SEARCH_TOOLS: Record<string, string> = { Grep: 'pattern', Glob: 'pattern', WebSearch: 'query', WebFetch: 'url', LS: 'path' };

/** What one of claude's tools did, from its name and input. */
export const describeClaudeTool = (name: string, input: Record<string, unknown>, cwd: string): Described => {
  const file = FILE_TOOLS[name];
  if (file) return describeFile(file, input.file_path ?? input.notebook_path, cwd, name);
  if (name === 'Bash') return describeCommand(text(input.command), cwd);
  const searchKey = SEARCH_TOOLS[name];
  if (searchKey) return { kind: 'search', title: describeCommand(text(input[searchKey]) || name, cwd).title };
  if (name === 'AskUserQuestion') return { kind: 'question', title: 'a question for the user' };
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return describeMcp(mcp[1]!, mcp[2]!, input);
  const description = text(input.description);
  return { kind: 'other', title: description ? `${name}: ${description}` : name };
};

const blocksOf = (ev: Record<string, unknown>): Block[] => {
  const content = (ev.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
};

/** The activity reports in one parsed stream-json line. */
export const claudeActivity = (ev: Record<string, unknown>, cwd: string): ActivityReport[] => {
  const out: ActivityReport[] = [];
  for (const b of blocksOf(ev)) {
    if (ev.type === 'assistant' && b.type === 'tool_use' && b.id && b.name) {
      out.push({ phase: 'started', callId: b.id, tool: b.name, ...describeClaudeTool(b.name, b.input ?? {}, cwd) });
    }
    if (ev.type === 'user' && b.type === 'tool_result' && b.tool_use_id) {
      const output = outputText(b.content);
      // a failed Bash call's result starts "Exit code <n>"
      const exit = b.is_error ? /^Exit code (\d+)/.exec(output) : null;
      out.push({ phase: 'ended', callId: b.tool_use_id, status: b.is_error ? 'error' : 'ok', output, ...(exit ? { exitCode: Number(exit[1]) } : {}) });
    }
  }
  return out;
};
