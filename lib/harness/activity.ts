// One activity model for every CLI: each tool call the agent makes is reported as it starts and
// as it ends, with a kind, a short title a person can read (a path relative to the worktree, a
// command line, a query) and the tool's output. Each adapter maps its own stream onto this
// (claude-activity.ts, codex-activity.ts, opencode-activity.ts); the engine records the reports
// in the run's log store (lib/state/activity-log.ts).

export type ActivityKind = 'read' | 'edit' | 'write' | 'command' | 'search' | 'mcp' | 'question' | 'other';
export type ActivityStatus = 'running' | 'ok' | 'error';

export interface ActivityStarted {
  readonly phase: 'started';
  /** the CLI's own id for the call (unique within one turn) */
  readonly callId: string;
  /** the CLI's tool name (Bash, exec_command, read…) */
  readonly tool: string;
  readonly kind: ActivityKind;
  readonly title: string;
  /** the file a read, edit or write is about, relative to the worktree */
  readonly path?: string;
  /** when the CLI says when it started (opencode); otherwise the store's clock */
  readonly at?: string;
}

export interface ActivityEnded {
  readonly phase: 'ended';
  readonly callId: string;
  readonly status: Exclude<ActivityStatus, 'running'>;
  readonly output?: string;
  readonly exitCode?: number;
  readonly at?: string;
}

export type ActivityReport = ActivityStarted | ActivityEnded;

export type Described = Pick<ActivityStarted, 'kind' | 'title' | 'path'>;

/** A path as the worktree sees it: relative when inside it, as given otherwise. */
export const relativePath = (p: string, cwd: string): string => {
  if (!cwd || !p.startsWith('/')) return p;
  const root = cwd.replace(/\/+$/, '');
  if (p === root) return '.';
  return p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p;
};

/** Every mention of the worktree's absolute path in a text (a command line) made relative. */
export const relativeIn = (text: string, cwd: string): string => {
  const root = cwd.replace(/\/+$/, '');
  if (!root) return text;
  const at = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|(?=[\\s'"]|$))`, 'g');
  return text.replace(at, (m) => (m.endsWith('/') ? '' : '.'));
};

// `/bin/bash -lc '<command>'` (codex wraps every command so): the command inside.
const unwrapShell = (command: string): string => {
  const m = /^(?:\S*\/)?(?:ba|z)?sh -l?c (.*)$/s.exec(command.trim());
  if (!m) return command.trim();
  const arg = m[1]!.trim();
  if (arg.startsWith("'") && arg.endsWith("'")) return arg.slice(1, -1).split(`'\\''`).join("'");
  if (arg.startsWith('"') && arg.endsWith('"')) return arg.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return arg;
};

// Plain words only: a command with pipes, redirections or substitutions is a command, whatever it starts with.
const words = (command: string): string[] | null => (/^[\w./@+=,:-]+(?: +[\w./@+=,:-]+)*$/.test(command) ? command.split(/ +/) : null);

const READERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more']);
const SEARCHERS = new Set(['rg', 'grep', 'ag']);

/**
 * A shell command as an activity: reading one file with cat/head/tail/nl is a read of that file (codex
 * has no read tool of its own and reads this way), rg/grep a search, anything else a command. The
 * same rule for every CLI's shell tool, so the same work reads the same whichever CLI did it.
 */
export const describeCommand = (command: string, cwd: string): Described => {
  const inner = unwrapShell(command);
  const title = relativeIn(inner, cwd).replace(/\s+/g, ' ').trim();
  const w = words(inner);
  const files = w?.slice(1).filter((a) => !a.startsWith('-')) ?? [];
  if (w && READERS.has(w[0]!) && files.length === 1) {
    const path = relativePath(files[0]!, cwd);
    return { kind: 'read', title: path, path };
  }
  if (w && SEARCHERS.has(w[0]!)) return { kind: 'search', title };
  return { kind: 'command', title };
};

/** An MCP tool: the in-run server's ask_question is a question to a person; any other is an mcp call. */
export const describeMcp = (server: string, tool: string, args: unknown): Described => {
  const prompt = (args as { prompt?: unknown } | undefined)?.prompt;
  if (server === 'svc' && tool === 'ask_question') return { kind: 'question', title: typeof prompt === 'string' ? prompt : 'ask_question' };
  return { kind: 'mcp', title: `${server}.${tool}` };
};

/** A file tool's row: the path relative to the worktree is its title. */
export const describeFile = (kind: 'read' | 'edit' | 'write', path: unknown, cwd: string, fallback: string): Described => {
  if (typeof path !== 'string' || !path) return { kind, title: fallback };
  const rel = relativePath(path, cwd);
  return { kind, title: rel, path: rel };
};

/** Tool output as text: strings as they are, MCP-style content blocks joined, anything else as JSON. */
export const outputText = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (typeof (b as { text?: unknown })?.text === 'string' ? (b as { text: string }).text : JSON.stringify(b))).join('\n');
  const content = (v as { content?: unknown }).content;
  if (Array.isArray(content)) return outputText(content);
  return JSON.stringify(v);
};

export const text = (v: unknown): string => (typeof v === 'string' ? v : '');
