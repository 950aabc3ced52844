// Flags for one `codex exec --json` turn. Codex remembers no flags across `exec resume`, so
// every turn passes them all again. Values after -c are TOML; JSON string literals are valid
// TOML basic strings, which is how free text (URLs, instructions) is quoted.
import type { ToolAccess } from '../../domain/workflow.js';
import type { TurnInput } from './adapter.js';
import { MCP_TOOL_TIMEOUT_MS, RUN_TOKEN_ENV } from './common.js';

const toml = (s: string): string => JSON.stringify(s);
const cfg = (key: string, value: string): string[] => ['-c', `${key}=${value}`];

// read-only: codex's read-only sandbox; edit: writes inside the workspace (the worktree) only;
// full: no sandbox and no approvals. Headless exec cannot ask, so approvals are never requested.
// Inside svc's sandbox (`ours`), codex's own is off at every level: ours makes the run's folder
// read-only or not, and codex's (bubblewrap too, on Linux) cannot start inside it and hid the
// run's folder when it did ("Failed to write file" from apply_patch).
export const codexSandboxFlags = (tools: ToolAccess, ours = false): string[] => {
  if (ours) return ['--sandbox', 'danger-full-access', ...cfg('approval_policy', toml('never'))];
  if (tools === 'full') return ['--dangerously-bypass-approvals-and-sandbox'];
  return ['--sandbox', tools === 'edit' ? 'workspace-write' : 'read-only', ...cfg('approval_policy', toml('never'))];
};

export const codexMcpFlags = (url: string): string[] => [
  ...cfg('mcp_servers.svc.url', toml(url)),
  // codex refuses an inline bearer token for streamable HTTP; it reads it from this variable
  ...cfg('mcp_servers.svc.bearer_token_env_var', toml(RUN_TOKEN_ENV)),
  ...cfg('mcp_servers.svc.tool_timeout_sec', String(MCP_TOOL_TIMEOUT_MS / 1000)),
  ...cfg('mcp_servers.svc.startup_timeout_sec', '30'),
  // headless exec cannot ask, and with approvals "never" an MCP call needing approval fails
  ...cfg('mcp_servers.svc.default_tools_approval_mode', toml('approve')),
];

export const codexArgs = (input: TurnInput): string[] => [
  'exec',
  '--json',
  '--skip-git-repo-check',
  ...codexSandboxFlags(input.tools, input.sandbox !== undefined),
  ...codexMcpFlags(input.runTools.url),
  ...(input.model ? ['--model', input.model] : []),
  // codex has no append-system-prompt flag; developer_instructions is its equivalent
  ...(input.systemPrompt ? cfg('developer_instructions', toml(input.systemPrompt)) : []),
  ...(input.resumeSession ? ['resume', input.resumeSession] : []),
  '--',
  input.prompt,
];
