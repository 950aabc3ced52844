import { previewPath } from '../../domain/preview.js';
import { sandboxRefusal, type SandboxReadiness } from '../../commands/sandbox.js';
import type { RunState } from '../../projections/run-state.js';
import type { SandboxedTool } from '../sandbox/home.js';
import { modelHosts } from '../sandbox/model-hosts.js';
import { bwrapBin, knownProbe } from '../sandbox/probe.js';
import { openStepSandbox, type SandboxChoice, type SandboxOpen } from '../sandbox/sandbox.js';
import { LIFELINE } from '../harness/process.js';
import { borrowedObjects } from '../git/run-clones.js';
import type { ProjectView } from '../../domain/runs.js';
import type { ServiceCore } from './core.js';

// The project's sandbox setting meets the machine's probe (lib/sandbox/probe.ts) here: for a
// start (required refuses), for the New run form and doctor (say whether and why not), and for
// each step the engine runs in a run's folder (the sandbox itself, or why there is none).

/** why svc's sandbox cannot start here (null: it can) */
export const sandboxUnavailable = (): string | null => {
  const p = knownProbe(bwrapBin());
  if (!p) return 'not checked yet';
  return p._tag === 'Ready' ? null : p.reason;
};

/** The machine's answer, for `svc doctor` and the Settings page: can sandboxes start here, and why not. */
export interface MachineSandbox {
  readonly available: boolean;
  readonly bwrap: string;
  readonly version?: string;
  readonly reason: string | null;
}

export const machineSandbox = (): MachineSandbox => {
  const p = knownProbe(bwrapBin());
  if (!p) return { available: false, bwrap: bwrapBin(), reason: 'not checked yet' };
  return p._tag === 'Ready' ? { available: true, bwrap: p.bwrap, version: p.version, reason: null } : { available: false, bwrap: p.bwrap, reason: p.reason };
};

export const sandboxReadiness = (project: ProjectView): SandboxReadiness => ({ mode: project.sandbox ?? 'preferred', unavailable: sandboxUnavailable() });

export interface SandboxStatus {
  readonly mode: SandboxReadiness['mode'];
  readonly sandboxed: boolean;
  /** why runs will not be sandboxed (null when they will) */
  readonly reason: string | null;
  /** what a start would be refused with (required, and the sandbox cannot start) */
  readonly refusal: string | null;
}

export const sandboxStatus = (project: ProjectView): SandboxStatus => {
  const r = sandboxReadiness(project);
  const refused = sandboxRefusal(r);
  if (r.mode === 'off') return { mode: r.mode, sandboxed: false, reason: 'the project\'s sandbox setting is off', refusal: null };
  return { mode: r.mode, sandboxed: r.unavailable === null, reason: r.unavailable, refusal: refused && refused._tag === 'Unavailable' ? refused.detail : null };
};

/** the project's own allowlist for a step's tools level: none read-only, the list to edit, the full list too for full */
export const projectAllow = (project: ProjectView, tools: string): string[] =>
  (tools === 'read-only' ? [] : [...(project.egressAllow ?? []), ...(tools === 'full' ? project.egressAllowFull ?? [] : [])]);

const allowFor = (project: ProjectView, tool: SandboxedTool, tools: SandboxOpen['tools'], env: NodeJS.ProcessEnv): string[] =>
  [...modelHosts(tool, env), ...projectAllow(project, tools)];

// Never visible inside: svc's home (every run, the MCP token), and every project's folders.
const hiddenOf = (core: ServiceCore): string[] => [core.home, ...[...core.projects.current.values()].flatMap((p) => p.folders.map((f) => f.path))];

// A fork's session is a copy of its source's, and names the source's folder (opencode resolves it
// before it starts): the sandbox puts an empty folder there, so the CLI starts and the source's
// files stay out of reach. Forks of forks name the first source's: the whole chain, bounded.
const forkSources = (core: ServiceCore, run: RunState): string[] => {
  const out: string[] = [];
  let from = run.forkedFrom?.run;
  for (let depth = 0; from && depth < 20; depth++) {
    const source = core.runs.get(from);
    out.push(...(source?.checkouts ?? []).map((c) => c.directory));
    from = source?.forkedFrom?.run;
  }
  return out;
};

// opencode (1.18) runs a session in the folder the session names, and a fork's copy names the
// first run's of the chain: started anywhere else its turn never reports back (measured: `run
// --session <id> --fork` hangs). Inside the fork's sandbox the fork's own folder is bound at that
// path and the turn starts there, so its session finds it and writes only into the fork.
const sessionDirOf = (core: ServiceCore, run: RunState, tool: SandboxedTool): string | undefined => {
  if (tool !== 'opencode' || !run.forkedFrom) return undefined;
  let root = run;
  for (let depth = 0, next = core.runs.get(run.forkedFrom.run); next && depth < 20; depth++, next = next.forkedFrom ? core.runs.get(next.forkedFrom.run) : undefined) root = next;
  return root === run ? undefined : root.checkouts?.[0]?.directory;
};

export const sandboxChoice = (core: ServiceCore, run: RunState, tool: SandboxedTool): SandboxChoice => {
  const project = core.projects.current.get(run.projectId);
  if (!project) return { _tag: 'Unsandboxed', reason: 'the run\'s project is gone', required: false };
  const status = sandboxStatus(project);
  if (!status.sandboxed) return { _tag: 'Unsandboxed', reason: status.reason ?? 'unknown', required: status.mode === 'required' };
  return {
    _tag: 'Sandboxed',
    open: (o) => openStepSandbox({
      bwrap: bwrapBin(), tool, checkouts: (run.checkouts ?? []).map((c) => c.directory), writable: o.tools !== 'read-only',
      // a run's own repository reads the person's objects (never writes them): those alone of their repository
      readOnly: (run.checkouts ?? []).filter((c) => c.clone).map((c) => borrowedObjects(c.path)),
      hidden: hiddenOf(core), placeholders: forkSources(core, run), sessionDir: sessionDirOf(core, run, tool), env: o.env, programs: [process.execPath, LIFELINE, ...(o.program ? [o.program] : [])],
      egress: { allow: allowFor(project, tool, o.tools, o.env), runTools: o.runTools ?? '', ...(core.baseUrl ? { preview: `${core.baseUrl}${previewPath(run.runId)}` } : {}) }, onRefused: o.onRefused,
      ...(o.ingress ? { ingress: o.ingress } : {}),
    }),
  };
};
