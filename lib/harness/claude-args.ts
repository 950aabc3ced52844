// Flags for one claude turn. The prompt is not an argument: it goes to stdin as a stream-json
// user line, so later user lines (send()) can follow it into the same turn.
import type { ToolAccess } from '../../domain/workflow.js';
import type { TurnInput } from './adapter.js';
import { RUN_TOKEN_ENV } from './common.js';

// claude expands ${VAR} in MCP headers, so the run token stays out of argv (and `ps`).

export const CLAUDE_MCP_TOOLS = 'mcp__svc__ask_question,mcp__svc__report_outcome';

// Headless claude cannot prompt, so anything not allowed is denied. read-only: default mode
// (reads, and Bash only where claude itself judges the command read-only), file tools refused;
// edit: file edits inside the cwd accepted; full: edits accepted and every tool allowed by name.
// Not bypassPermissions for full: claude refuses it when running as root (containers).
const FULL_TOOLS = 'Bash,Edit,Write,NotebookEdit,WebFetch,WebSearch';

// `mcp__svc` alone is claude's rule for every tool of that server (a supervisor's endpoint).
export const claudePermissionFlags = (tools: ToolAccess, allServerTools = false): string[] => {
  const mcpTools = allServerTools ? 'mcp__svc' : CLAUDE_MCP_TOOLS;
  if (tools === 'full') return ['--permission-mode', 'acceptEdits', '--allowedTools', `${FULL_TOOLS},${mcpTools}`];
  const mcp = ['--allowedTools', mcpTools];
  if (tools === 'edit') return ['--permission-mode', 'acceptEdits', ...mcp];
  return ['--permission-mode', 'default', ...mcp, '--disallowedTools', 'Write,Edit,NotebookEdit'];
};

export const claudeMcpConfig = (url: string): string =>
  JSON.stringify({ mcpServers: { svc: { type: 'http', url, headers: { Authorization: `Bearer \${${RUN_TOKEN_ENV}}` } } } });

export const claudeArgs = (input: TurnInput): string[] => [
  '-p',
  '--verbose',
  '--output-format',
  'stream-json',
  '--input-format',
  'stream-json',
  '--mcp-config',
  claudeMcpConfig(input.runTools.url),
  '--strict-mcp-config',
  ...claudePermissionFlags(input.tools, input.allowAllServerTools),
  ...(input.model ? ['--model', input.model] : []),
  ...(input.systemPrompt ? ['--append-system-prompt', input.systemPrompt] : []),
  ...(input.resumeSession ? ['--resume', input.resumeSession] : []),
  ...(input.resumeSession && input.forkSession ? ['--fork-session'] : []),
];

export const claudeUserLine = (text: string): string =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
