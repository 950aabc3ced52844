// The bubblewrap profile, as an argument list: a read-only system, the places a person's secrets
// and other work live masked by empty tmpfs mounts, then only what the step needs bound back (the
// run's writable paths, its CLI's login and session store, the egress socket). Pure: the caller
// (lib/sandbox/plan.ts) decides the paths and checks they exist.

export interface Bind {
  readonly path: string;
  readonly writable: boolean;
}

export interface SandboxProfile {
  /** masked by an empty tmpfs before anything is bound back: the SYSTEM_MASKS that exist, svc's home, the projects' folders, $HOME */
  readonly hidden: readonly string[];
  /** bound back after the masks at the same path, parents before children */
  readonly binds: readonly Bind[];
  /**
   * empty folders made at these paths inside the masks: where a session copied from another run (a
   * fork's) names that run's folder, the CLI finds a folder there, and nothing of the other run
   */
  readonly placeholders?: readonly string[];
  /**
   * a folder bound again at another path (the run's folder, where a copied session names its
   * source's): what the CLI finds there is the run's own, never the other run's
   */
  readonly alias?: { readonly path: string; readonly at: string; readonly writable: boolean };
  /** the egress proxy's unix socket outside, and the path the sandbox sees it at */
  readonly socket?: { readonly outside: string; readonly inside: string };
  readonly cwd: string;
}

/** Where other users' files, sockets (docker, dbus) and scratch space live: empty inside. */
export const SYSTEM_MASKS = ['/home', '/root', '/tmp', '/var/tmp', '/run', '/mnt', '/media', '/srv'] as const;

/** Where the egress socket appears inside (under the private /run). */
export const INSIDE_SOCKET = '/run/svc/egress.sock';

const depth = (p: string): number => p.split('/').filter(Boolean).length;

// A parent bound after its child would cover it: bind shallow paths first (stable for equals).
const ordered = (binds: readonly Bind[]): Bind[] => [...binds].sort((a, b) => depth(a.path) - depth(b.path));

export const bwrapArgs = (p: SandboxProfile): string[] => [
  '--ro-bind', '/', '/',
  '--dev', '/dev',
  '--proc', '/proc',
  ...ordered(p.hidden.map((path) => ({ path, writable: false }))).flatMap((h) => ['--tmpfs', h.path]),
  ...(p.placeholders ?? []).flatMap((d) => ['--dir', d]),
  ...ordered(p.binds).flatMap((b) => [b.writable ? '--bind' : '--ro-bind', b.path, b.path]),
  ...(p.alias ? [p.alias.writable ? '--bind' : '--ro-bind', p.alias.path, p.alias.at] : []),
  ...(p.socket ? ['--bind', p.socket.outside, p.socket.inside] : []),
  '--unshare-all',
  '--die-with-parent',
  '--new-session',
  '--chdir', p.cwd,
];
