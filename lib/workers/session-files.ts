import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HarnessName } from '../../domain/workflow.js';
import { writePrivateFile } from '../private-file.js';
import { exportOpencodeSession, importOpencodeSession } from './opencode-session.js';

// A session moves between machines as its files (docs/workers.md, "Sessions move"). claude keeps
// a session as one JSONL file under its config dir, `projects/<cwd with every non-alphanumeric
// as '-'>/<session id>.jsonl`; `--resume <id>` from the same cwd (a run folder has the same path on
// every machine) finds it there, on a fresh config dir too. codex keeps a thread as one rollout
// file, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`; `codex exec resume` finds
// it copied alone into a fresh CODEX_HOME (measured). The files travel as one blob,
// {files: [{path, data}]} with paths relative to the CLI's own folder. opencode keeps its sessions
// in its own store and moves one through its own export and import (opencode-session.ts).

interface SessionFile { readonly path: string; readonly data: string }

const CLAUDE_SESSION = /^projects\/[A-Za-z0-9._-]{1,400}\/[A-Za-z0-9-]{1,100}\.jsonl$/;
const CODEX_SESSION = /^sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-[A-Za-z0-9T.-]{1,200}\.jsonl$/;

/** the CLI's config dir on this machine, as the CLI itself finds it */
export const claudeConfigDir = (env: NodeJS.ProcessEnv): string => env['CLAUDE_CONFIG_DIR'] || join(env['HOME'] || homedir(), '.claude');

/** codex's home on this machine: a thread is one rollout file under its sessions folder */
export const codexHome = (env: NodeJS.ProcessEnv): string => env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex');

const below = (dir: string, depth: number): string[] => (depth === 0 || !existsSync(dir) ? [] :
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? below(join(dir, e.name), depth - 1).map((f) => `${e.name}/${f}`) : depth === 1 ? [e.name] : [])));

const codexFiles = (threadId: string, env: NodeJS.ProcessEnv): SessionFile[] => {
  if (!/^[A-Za-z0-9-]{1,100}$/.test(threadId)) return [];
  return below(join(codexHome(env), 'sessions'), 4).filter((f) => f.endsWith(`-${threadId}.jsonl`))
    .map((f) => ({ path: `sessions/${f}`, data: readFileSync(join(codexHome(env), 'sessions', f)).toString('base64') }));
};

const claudeFiles = (sessionId: string, env: NodeJS.ProcessEnv): SessionFile[] => {
  const projects = join(claudeConfigDir(env), 'projects');
  if (!/^[A-Za-z0-9-]{1,100}$/.test(sessionId) || !existsSync(projects)) return [];
  return readdirSync(projects).flatMap((slug) => {
    const file = join(projects, slug, `${sessionId}.jsonl`);
    return existsSync(file) ? [{ path: `projects/${slug}/${sessionId}.jsonl`, data: readFileSync(file).toString('base64') }] : [];
  });
};

/**
 * the session's files on this machine as one blob, or null when none is here; `opencode`: the
 * opencode this machine runs and the run's folder, as its sessions move through its own export
 * and import (opencode-session.ts)
 */
export const gatherSession = async (harness: HarnessName, sessionId: string, env: NodeJS.ProcessEnv, opencode?: { readonly bin: string; readonly cwd: string }): Promise<Buffer | null> => {
  if (harness === 'opencode') return opencode ? exportOpencodeSession(opencode.bin, sessionId, env, opencode.cwd) : null;
  const files = harness === 'claude' ? claudeFiles(sessionId, env) : harness === 'codex' ? codexFiles(sessionId, env) : [];
  return files.length > 0 ? Buffer.from(JSON.stringify({ files })) : null;
};

/** writes a session's files where this machine's CLI looks for them; a path of any other shape is not written */
export const placeSession = async (harness: HarnessName, blob: Buffer, env: NodeJS.ProcessEnv, opencode?: { readonly bin: string; readonly cwd: string }): Promise<number> => {
  if (harness === 'opencode') return opencode ? importOpencodeSession(opencode.bin, blob, env, opencode.cwd) : 0;
  const rule = harness === 'claude' ? CLAUDE_SESSION : harness === 'codex' ? CODEX_SESSION : null;
  const root = harness === 'claude' ? claudeConfigDir(env) : codexHome(env);
  if (!rule) return 0;
  const parsed = JSON.parse(blob.toString()) as { files?: unknown };
  const files = Array.isArray(parsed.files) ? parsed.files as Partial<SessionFile>[] : [];
  let written = 0;
  for (const f of files) {
    if (typeof f.path !== 'string' || typeof f.data !== 'string' || !rule.test(f.path) || f.path.includes('..')) continue;
    const to = join(root, f.path);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    writeFileSync(to, Buffer.from(f.data, 'base64'), { mode: 0o600 });
    written++;
  }
  return written;
};

/** the hub's copies of sessions as of their last step end (~/.svc/sessions, owner-only), keyed by harness and session id */
export const sessionStore = (dir: string) => {
  const file = (harness: HarnessName, sessionId: string): string | null => (/^[A-Za-z0-9_-]{1,100}$/.test(sessionId) ? join(dir, `${harness}-${sessionId}.json`) : null);
  return {
    put(harness: HarnessName, sessionId: string, blob: Buffer): void {
      const f = file(harness, sessionId);
      if (f) writePrivateFile(f, blob);
    },
    get(harness: HarnessName, sessionId: string): Buffer | null {
      const f = file(harness, sessionId);
      return f && existsSync(f) ? readFileSync(f) : null;
    },
  };
};
export type SessionStore = ReturnType<typeof sessionStore>;
