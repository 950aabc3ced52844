import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// opencode keeps its sessions in its own SQLite store ($XDG_DATA_HOME/opencode/opencode.db), not
// as a file named by the session, so one moves through opencode's own commands (measured with
// opencode 1.18 in spec/workers/session-files.test.ts): `opencode export <id>` prints the session
// as JSON, and `opencode import <file>` on the other machine makes it there under the same id;
// `opencode run --session <id>` from the same folder then goes on with its earlier turns.

const ID = /^ses_[A-Za-z0-9]{1,100}$/;
const LIMIT = 64 * 1024 * 1024;

// opencode files a session under the project of the folder it runs in (and takes the folder from
// PWD): export and import run in the run's folder, which has the same path on every machine
const run = (bin: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string | null> => new Promise((resolve) => {
  execFile(bin, [...args], { env: { ...env, PWD: cwd }, cwd, timeout: 120_000, maxBuffer: LIMIT }, (e, out) => resolve(e ? null : out));
});

/** the session as opencode exports it, or null (no such session, or opencode could not say) */
export const exportOpencodeSession = async (bin: string, sessionId: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Buffer | null> => {
  if (!ID.test(sessionId)) return null;
  const out = await run(bin, ['export', sessionId], env, cwd);
  if (!out) return null;
  try {
    const parsed = JSON.parse(out) as { info?: { id?: unknown } };
    return parsed.info?.id === sessionId ? Buffer.from(JSON.stringify({ opencode: parsed })) : null;
  } catch {
    return null;
  }
};

/** the exported session into this machine's opencode; 1 when it took it, 0 when not */
export const importOpencodeSession = async (bin: string, blob: Buffer, env: NodeJS.ProcessEnv, cwd: string): Promise<number> => {
  let session: unknown;
  try { session = (JSON.parse(blob.toString()) as { opencode?: unknown }).opencode; } catch { return 0; }
  const id = (session as { info?: { id?: unknown } } | undefined)?.info?.id;
  if (typeof id !== 'string' || !ID.test(id)) return 0;
  const dir = mkdtempSync(join(tmpdir(), 'svc-opencode-session-'));
  try {
    const file = join(dir, 'session.json');
    writeFileSync(file, JSON.stringify(session), { mode: 0o600 });
    return (await run(bin, ['import', file], env, cwd)) === null ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
