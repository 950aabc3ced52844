import type { PreviewCommand } from '../../domain/preview.js';
import { previewPath } from '../../domain/preview.js';
import { freePort, lockfileFingerprint, portAnswers } from './ports.js';
import { startGroup, type GroupProcess } from './process.js';

// One preview's start: setup when the folder's lockfile differs from the one setup last ran
// against, a free port, the server under the lifeline; then waiting until its port answers.

export interface LaunchPorts {
  readonly log: (text: string) => void;
  /** the lockfile fingerprint setup last succeeded against in this folder, if any */
  readonly setupDone: (folder: string) => string | undefined;
  readonly setupRan: (folder: string, lockfile: string, exitCode: number | null) => void;
  readonly stateChanged: (state: 'setting-up' | 'starting') => void;
}

export type Launched = { readonly ok: true; readonly port: number; readonly process: GroupProcess } | { readonly ok: false; readonly detail: string };

const envFor = (runId: string, command: PreviewCommand, port: number): NodeJS.ProcessEnv => ({
  ...process.env, [command.portEnv]: String(port), HOST: '127.0.0.1', SVC_PREVIEW_BASE: previewPath(runId),
});

const setup = async (runId: string, folder: string, command: PreviewCommand, p: LaunchPorts, signal: AbortSignal): Promise<string | null> => {
  if (!command.setup) return null;
  const lockfile = lockfileFingerprint(folder);
  if (p.setupDone(folder) === lockfile) return null;
  p.stateChanged('setting-up');
  p.log(`preview setup: ${JSON.stringify(command.setup)} in ${folder}`);
  const run = startGroup({ argv: command.setup, cwd: folder, env: envFor(runId, command, 0), onLine: (l) => p.log(`preview setup │ ${l}`) });
  const onAbort = () => { if (run.leader) try { process.kill(-run.leader.pid, 'SIGKILL'); } catch { /* gone */ } };
  signal.addEventListener('abort', onAbort, { once: true });
  const end = await run.exit;
  signal.removeEventListener('abort', onAbort);
  if (signal.aborted) return 'stopped during setup';
  p.setupRan(folder, lockfile, end.code);
  if (end.spawnError) return `setup could not start: ${end.spawnError}`;
  return end.code === 0 ? null : `setup exited with ${end.code ?? 'a signal'}`;
};

export const launch = async (runId: string, folder: string, command: PreviewCommand, p: LaunchPorts, signal: AbortSignal): Promise<Launched> => {
  const failed = await setup(runId, folder, command, p, signal);
  if (failed) return { ok: false, detail: failed };
  p.stateChanged('starting');
  const port = await freePort();
  p.log(`preview: ${JSON.stringify(command.argv)} in ${folder} with ${command.portEnv}=${port}`);
  const proc = startGroup({ argv: command.argv, cwd: folder, env: envFor(runId, command, port), onLine: (l) => p.log(`preview │ ${l}`) });
  if (!proc.leader) {
    const end = await proc.exit;
    return { ok: false, detail: end.spawnError ?? 'the preview command did not start' };
  }
  return { ok: true, port, process: proc };
};

/** resolves true once the port answers, false when the process exits or `signal` aborts first */
export const untilAnswers = async (port: number, exited: Promise<unknown>, signal: AbortSignal): Promise<boolean> => {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let wait = 50; !gone && !signal.aborted; wait = Math.min(wait * 2, 500)) {
    if (await portAnswers(port)) return true;
    await new Promise((r) => setTimeout(r, wait));
  }
  return false;
};
