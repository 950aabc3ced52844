// One step's sandbox: the profile built from the step's facts, its egress proxy, and the one way
// to run something inside: wrap(file, args, env) gives the bubblewrap command line that runs it.
// The caller (the engine) names the run's writable paths, what to hide and what the step may
// reach; this module knows nothing of runs or projects.
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, sep } from 'node:path';
import { openEgress, type EgressRules, type Refused } from './egress.js';
import type { ToolAccess } from '../../domain/workflow.js';
import { homeBinds, type SandboxedTool } from './home.js';
import { bwrapArgs, INSIDE_SOCKET, SYSTEM_MASKS, type Bind, type SandboxProfile } from './profile.js';
import { checkoutBinds } from './run-paths.js';
import { findOnPath } from '../on-path.js';

export interface StepSandboxInput {
  readonly bwrap: string;
  readonly tool: SandboxedTool;
  /** the run's folders: the first is where the step runs */
  readonly checkouts: readonly string[];
  /** read-only inside, over what is hidden: the objects a run's own repository borrows (lib/git/run-clones.ts) */
  readonly readOnly?: readonly string[];
  /** false: the run's folders are read-only (tools = read-only) */
  readonly writable: boolean;
  /** never visible inside: svc's home, every project's folders */
  readonly hidden: readonly string[];
  /** other runs' folders a session may name (a fork's source): an empty folder there, nothing of theirs */
  readonly placeholders?: readonly string[];
  /**
   * where the step's session says it works, when that is another run's folder (an opencode fork's
   * session names its source's): the run's first folder is bound there too and the step starts there
   */
  readonly sessionDir?: string;
  /** the environment the tool will get: its HOME, XDG and CODEX_HOME say where its state is */
  readonly env: NodeJS.ProcessEnv;
  /** programs that must stay reachable (the CLI, node, svc's own lifeline) */
  readonly programs: readonly string[];
  readonly egress: EgressRules;
  readonly onRefused: Refused;
  /** a folder of svc's bound in writable at the same path: a preview's bridge puts its socket there */
  readonly ingress?: string;
}

export interface Wrapped {
  readonly file: string;
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
}

export interface StepSandbox {
  wrap(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Wrapped;
  close(): Promise<void>;
}

/** the loopback port the proxy answers on inside the sandbox (its network namespace is its own) */
export const INSIDE_PROXY_PORT = 3128;

const under = (p: string, dirs: readonly string[]): boolean => dirs.some((d) => p === d || p.startsWith(d.endsWith(sep) ? d : d + sep));

// A program's install root: the outermost node_modules it lives in (a CLI's native parts are in
// sibling packages), else its own folder.
const installRoot = (program: string): string => {
  const real = existsSync(program) ? realpathSync(program) : program;
  const at = real.indexOf(`${sep}node_modules${sep}`);
  return at >= 0 ? real.slice(0, at + `${sep}node_modules`.length) : dirname(real);
};

// Programs that live where masks fall (a global npm prefix in $HOME, nvm's node, a link in
// ~/.local/bin) are bound back read-only: the folder they are named in, and their install root.
const programBinds = (programs: readonly string[], masked: readonly string[], PATH: string): Bind[] =>
  [...new Set(programs.map((p) => (isAbsolute(p) ? p : findOnPath(p, PATH) ?? p)).flatMap((p) => [...(isAbsolute(p) ? [dirname(p)] : []), installRoot(p)]))]
    .filter((p) => under(p, masked)).map((path) => ({ path, writable: false }));

export const profileOf = (i: StepSandboxInput, socket: string): SandboxProfile => {
  const home = i.env['HOME'] || homedir();
  const masks = [...SYSTEM_MASKS.filter((m) => existsSync(m)), ...i.hidden.filter((h) => existsSync(h)), home];
  return {
    hidden: masks,
    binds: [
      ...programBinds(i.programs, masks, i.env['PATH'] ?? ''),
      ...homeBinds(i.tool, i.env),
      ...i.checkouts.flatMap((c) => checkoutBinds(c, i.writable)),
      ...(i.readOnly ?? []).filter((p) => existsSync(p)).map((path) => ({ path, writable: false })),
      ...(i.ingress ? [{ path: i.ingress, writable: true }] : []),
    ],
    ...(i.placeholders?.length ? { placeholders: i.placeholders } : {}),
    ...(i.sessionDir && i.checkouts[0] ? { alias: { path: i.checkouts[0], at: i.sessionDir, writable: i.writable } } : {}),
    socket: { outside: socket, inside: INSIDE_SOCKET },
    cwd: (i.sessionDir && i.checkouts[0] ? i.sessionDir : i.checkouts[0]) ?? '/',
  };
};

const proxyEnv = (): Record<string, string> => {
  const url = `http://127.0.0.1:${INSIDE_PROXY_PORT}`;
  // NO_PROXY emptied: the run's tool server is on loopback and must go through the proxy too
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, NO_PROXY: '', no_proxy: '', TMPDIR: '/tmp' };
};

export const openStepSandbox = (i: StepSandboxInput): StepSandbox => {
  const egress = openEgress(i.egress, i.onRefused);
  const args = bwrapArgs(profileOf(i, egress.socket));
  return {
    wrap: (file, rest, env) => ({
      file: i.bwrap,
      args: [...args, '--', file, ...rest],
      env: { ...env, ...proxyEnv(), SVC_EGRESS_BRIDGE: `${INSIDE_PROXY_PORT}=${INSIDE_SOCKET}` },
    }),
    close: () => egress.close(),
  };
};

/** How the engine asks for a step's sandbox (lib/service/sandbox.ts answers). */
export interface SandboxOpen {
  /** the step's tools level; 'command' for a command step (the folder writable, the project's list) */
  readonly tools: ToolAccess | 'command';
  /** the run's own tool server URL (agent steps) */
  readonly runTools?: string;
  /** a folder bound in writable (a preview's bridge socket) */
  readonly ingress?: string;
  readonly env: NodeJS.ProcessEnv;
  /** the program the step runs (the CLI's binary): kept reachable inside */
  readonly program?: string;
  readonly onRefused: Refused;
}

export type SandboxChoice =
  | { readonly _tag: 'Sandboxed'; open(o: SandboxOpen): StepSandbox }
  | { readonly _tag: 'Unsandboxed'; readonly reason: string; readonly required: boolean };
