// Can bubblewrap really start a sandbox here? Installed is not enough: user namespaces may be off
// (sysctl, a container's seccomp profile), or the binary may be setuid-less on a kernel that needs
// it. So the probe runs `bwrap <the same namespaces runs get> true` once per binary and keeps the
// answer, with the reason a person can act on when it fails.
import { execFile } from 'node:child_process';

export type SandboxProbe =
  | { readonly _tag: 'Ready'; readonly bwrap: string; readonly version: string }
  | { readonly _tag: 'Unavailable'; readonly bwrap: string; readonly reason: string };

/** SVC_BWRAP names the bubblewrap binary (an operator's choice, and how tests select a missing one). */
export const bwrapBin = (env: NodeJS.ProcessEnv = process.env): string => env['SVC_BWRAP'] || 'bwrap';

const PROBE_ARGS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-all', '--die-with-parent', '--new-session', 'true'];

interface Ran { readonly code: number | null; readonly stdout: string; readonly stderr: string; readonly errno?: string }

const run = (bin: string, args: readonly string[]): Promise<Ran> =>
  new Promise((resolve) => {
    execFile(bin, [...args], { timeout: 10_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const err = error as (NodeJS.ErrnoException & { code?: unknown }) | null;
      const errno = err && typeof err.code === 'string' ? err.code : undefined;
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr), ...(errno ? { errno } : {}) });
    });
  });

const firstLine = (s: string): string => s.trim().split('\n')[0]?.trim() ?? '';

export const probeBwrap = async (bwrap: string, platform: NodeJS.Platform = process.platform): Promise<SandboxProbe> => {
  if (platform !== 'linux') return { _tag: 'Unavailable', bwrap, reason: `bubblewrap sandboxes are Linux only; this is ${platform}` };
  const version = await run(bwrap, ['--version']);
  if (version.errno === 'ENOENT') return { _tag: 'Unavailable', bwrap, reason: `bubblewrap is not installed (${bwrap}: not found); install it with \`apt-get install bubblewrap\`` };
  if (version.errno) return { _tag: 'Unavailable', bwrap, reason: `${bwrap} could not be run (${version.errno})` };
  const tried = await run(bwrap, PROBE_ARGS);
  if (tried.code !== 0) {
    const why = firstLine(tried.stderr) || `exit ${tried.code ?? 'timeout'}`;
    return { _tag: 'Unavailable', bwrap, reason: `bubblewrap is installed but cannot start a sandbox here (${why}); user namespaces may be disabled` };
  }
  return { _tag: 'Ready', bwrap, version: firstLine(version.stdout) };
};

// One probe per binary for the life of the process: a sandbox that could start keeps being able to.
const cache = new Map<string, Promise<SandboxProbe>>();
const settled = new Map<string, SandboxProbe>();

export const sandboxProbe = (bwrap: string = bwrapBin()): Promise<SandboxProbe> => {
  const known = cache.get(bwrap);
  if (known) return known;
  const p = probeBwrap(bwrap).then((r) => (settled.set(bwrap, r), r));
  cache.set(bwrap, p);
  return p;
};

/** the answer already known for this binary, without waiting (undefined: not probed yet, or still probing) */
export const knownProbe = (bwrap: string = bwrapBin()): SandboxProbe | undefined => settled.get(bwrap);
