// The private home: inside the sandbox $HOME is an empty tmpfs holding only what the step's CLI
// needs, bound from the real home: its login, settings and session store (so --resume and forks
// find their sessions), and git's identity read-only (a commit needs user.name). Nothing else of
// the home (~/.ssh, cloud credentials, shell history, ~/.svc) is there.
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Bind } from './profile.js';

/** what runs in the sandbox: an agent CLI, or a workflow's command step */
export type SandboxedTool = 'claude' | 'codex' | 'opencode' | 'command';

const xdg = (env: NodeJS.ProcessEnv, name: string, fallback: string): string => env[name] || join(env['HOME'] || homedir(), fallback);

// Each CLI's own state, writable: where it keeps its login and its sessions (measured, see
// /work/shared/notes/harness-cli-facts.md and docs/sandbox.md).
const cliState = (tool: SandboxedTool, env: NodeJS.ProcessEnv, home: string): { dirs: string[]; files: string[] } => {
  switch (tool) {
    case 'claude': return { dirs: [env['CLAUDE_CONFIG_DIR'] || join(home, '.claude')], files: [join(home, '.claude.json')] };
    case 'codex': return { dirs: [env['CODEX_HOME'] || join(home, '.codex')], files: [] };
    case 'opencode': return {
      dirs: [['XDG_DATA_HOME', '.local/share'], ['XDG_CONFIG_HOME', '.config'], ['XDG_CACHE_HOME', '.cache'], ['XDG_STATE_HOME', '.local/state']]
        .map(([name, fallback]) => join(xdg(env, name!, fallback!), 'opencode')),
      files: [],
    };
    case 'command': return { dirs: [], files: [] };
  }
};

/**
 * The binds that make up the step's private home. A CLI's state folder that does not exist yet is
 * made (owner-only), so what the CLI writes there outlives the turn; a missing file is left out.
 */
export const homeBinds = (tool: SandboxedTool, env: NodeJS.ProcessEnv): Bind[] => {
  const home = env['HOME'] || homedir();
  const state = cliState(tool, env, home);
  for (const d of state.dirs) mkdirSync(d, { recursive: true, mode: 0o700 });
  const gitIdentity = [join(home, '.gitconfig'), join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'git')];
  return [
    ...state.dirs.map((path) => ({ path, writable: true })),
    ...state.files.filter((f) => existsSync(f)).map((path) => ({ path, writable: true })),
    ...gitIdentity.filter((f) => existsSync(f)).map((path) => ({ path, writable: false })),
  ];
};
