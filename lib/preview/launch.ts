import type { PreviewCommand } from '../../domain/preview.js';
import { previewPath } from '../../domain/preview.js';
import { freePort, httpAnswers, lockfileFingerprint, portAnswers, type PreviewTarget } from './ports.js';
import type { Box } from './box.js';
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

export type Launched = { readonly ok: true; readonly port: number; readonly socket: string | null; readonly process: GroupProcess } | { readonly ok: false; readonly detail: string };

const envFor = (runId: string, command: PreviewCommand, port: number): NodeJS.ProcessEnv => ({
  ...process.env, [command.portEnv]: String(port), HOST: '127.0.0.1', SVC_PREVIEW_BASE: previewPath(runId),
});

const setup = async (runId: string, folder: string, command: PreviewCommand, p: LaunchPorts, signal: AbortSignal, box: Box | null): Promise<string | null> => {
  if (!command.setup) return null;
  const lockfile = lockfileFingerprint(folder);
  if (p.setupDone(folder) === lockfile) return null;
  p.stateChanged('setting-up');
  p.log(`preview setup: ${JSON.stringify(command.setup)} in ${folder}`);
  const run = startGroup({ argv: command.setup, cwd: folder, env: envFor(runId, command, 0), onLine: (l) => p.log(`preview setup │ ${l}`), wrap: box?.wrap });
  const onAbort = () => { if (run.leader) try { process.kill(-run.leader.pid, 'SIGKILL'); } catch { /* gone */ } };
  signal.addEventListener('abort', onAbort, { once: true });
  const end = await run.exit;
  signal.removeEventListener('abort', onAbort);
  if (signal.aborted) return 'stopped during setup';
  p.setupRan(folder, lockfile, end.code);
  if (end.spawnError) return `setup could not start: ${end.spawnError}`;
  return end.code === 0 ? null : `setup exited with ${end.code ?? 'a signal'}`;
};

export const launch = async (runId: string, folder: string, command: PreviewCommand, p: LaunchPorts, signal: AbortSignal, box: Box | null): Promise<Launched> => {
  const failed = await setup(runId, folder, command, p, signal, box);
  if (failed) return { ok: false, detail: failed };
  p.stateChanged('starting');
  const port = await freePort();
  p.log(`preview: ${JSON.stringify(command.argv)} in ${folder} with ${command.portEnv}=${port}`);
  const env = { ...envFor(runId, command, port), ...box?.bridgeEnv(port) };
  const proc = startGroup({ argv: command.argv, cwd: folder, env, onLine: (l) => p.log(`preview │ ${l}`), wrap: box?.wrap });
  if (!proc.leader) {
    const end = await proc.exit;
    return { ok: false, detail: end.spawnError ?? 'the preview command did not start' };
  }
  return { ok: true, port, socket: box?.socket ?? null, process: proc };
};

/** resolves true once the preview answers, false when the process exits or `signal` aborts first */
export const untilAnswers = async (at: PreviewTarget, exited: Promise<unknown>, signal: AbortSignal): Promise<boolean> => {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let wait = 50; !gone && !signal.aborted; wait = Math.min(wait * 2, 500)) {
    // through the sandbox's bridge an HTTP answer is the test: the bridge accepts before the server listens
    if (at.socket ? await httpAnswers(at.socket) : await portAnswers(at.port)) return true;
    await new Promise((r) => setTimeout(r, wait));
  }
  return false;
};
