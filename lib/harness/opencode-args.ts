// Flags and inline config for one `opencode run --format json` turn. opencode has no flag for
// MCP servers, permissions or a system prompt: the first two go into OPENCODE_CONFIG_CONTENT
// (merged over any inline config the caller already set), the persona is prepended to the prompt.
import type { ToolAccess } from '../../domain/workflow.js';
import type { TurnInput } from './adapter.js';
import { MCP_TOOL_TIMEOUT_MS } from './common.js';

type Json = Record<string, unknown>;

// opencode has no sandbox; a non-interactive run denies whatever would "ask". read-only: no file
// edits, no shell; edit: file edits, no shell; full: everything allowed. opencode takes a git
// worktree's project to be the main checkout, so the run's own worktree counts as an "external
// directory" to it: that one folder is allowed explicitly, at every level.
export const opencodePermission = (tools: ToolAccess, cwd: string): Json => {
  if (tools === 'full') return { edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' };
  const worktree = { '*': 'deny', [cwd]: 'allow', [`${cwd}/**`]: 'allow' };
  return { edit: tools === 'edit' ? 'allow' : 'deny', bash: 'deny', webfetch: 'allow', external_directory: worktree };
};

const parseJson = (text: string | undefined): Json => {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
};

export const opencodeConfig = (input: TurnInput, existing: string | undefined): string => {
  const base = parseJson(existing);
  const svc = {
    type: 'remote',
    url: input.runTools.url,
    headers: { Authorization: `Bearer ${input.runTools.token}` },
    enabled: true,
    // a question may wait for a person: raise the MCP request timeout accordingly
    timeout: MCP_TOOL_TIMEOUT_MS,
  };
  return JSON.stringify({
    ...base,
    mcp: { ...((base.mcp as Json | undefined) ?? {}), svc },
    permission: opencodePermission(input.tools, input.cwd),
  });
};

export const opencodePrompt = (input: TurnInput): string =>
  input.systemPrompt ? `${input.systemPrompt}\n\n---\n\n${input.prompt}` : input.prompt;

export const opencodeArgs = (input: TurnInput): string[] => [
  'run',
  '--format',
  'json',
  // error-level logs on stderr: provider errors and retries show in the run log (and count as
  // signs of life for the watchdog while opencode backs off)
  '--print-logs',
  '--log-level',
  'ERROR',
  ...(input.model ? ['--model', input.model] : []),
  ...(input.resumeSession ? ['--session', input.resumeSession] : []),
  // a fork's first turn continues a copy of the source's session (opencode run --fork)
  ...(input.resumeSession && input.forkSession ? ['--fork'] : []),
  '--',
  opencodePrompt(input),
];
