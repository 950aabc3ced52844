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

const allowFor = (project: ProjectView, tool: SandboxedTool, tools: SandboxOpen['tools'], env: NodeJS.ProcessEnv): string[] => {
  const model = modelHosts(tool, env);
  if (tools === 'read-only') return model;
  return [...model, ...(project.egressAllow ?? []), ...(tools === 'full' ? project.egressAllowFull ?? [] : [])];
};

// Never visible inside: svc's home (every run, the MCP token), and every project's folders.
const hiddenOf = (core: ServiceCore): string[] => [core.home, ...[...core.projects.current.values()].flatMap((p) => p.folders.map((f) => f.path))];

// Measured (opencode 1.18): a session opencode wrote inside the sandbox hangs when a fork resumes it
// (`run --session <id> --fork`) outside it, and a fork inside it works in the source run's folder,
// which the sandbox hides. Until runs have their own clones and sessions move with them, opencode's
// turns run unsandboxed, marked with this reason (docs/sandbox.md); claude's and codex's are sandboxed.
const OPENCODE_UNSANDBOXED = 'opencode\'s sessions written inside svc\'s sandbox cannot yet be forked (opencode 1.18 hangs resuming them): opencode turns run unsandboxed for now';

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

export const sandboxChoice = (core: ServiceCore, run: RunState, tool: SandboxedTool): SandboxChoice => {
  const project = core.projects.current.get(run.projectId);
  if (!project) return { _tag: 'Unsandboxed', reason: 'the run\'s project is gone', required: false };
  const status = sandboxStatus(project);
  if (!status.sandboxed) return { _tag: 'Unsandboxed', reason: status.reason ?? 'unknown', required: status.mode === 'required' };
  if (tool === 'opencode') return { _tag: 'Unsandboxed', reason: OPENCODE_UNSANDBOXED, required: status.mode === 'required' };
  return {
    _tag: 'Sandboxed',
    open: (o) => openStepSandbox({
      bwrap: bwrapBin(), tool, checkouts: (run.checkouts ?? []).map((c) => c.directory), writable: o.tools !== 'read-only',
      // a run's own repository reads the person's objects (never writes them): those alone of their repository
      readOnly: (run.checkouts ?? []).filter((c) => c.clone).map((c) => borrowedObjects(c.path)),
      hidden: hiddenOf(core), placeholders: forkSources(core, run), env: o.env, programs: [process.execPath, LIFELINE, ...(o.program ? [o.program] : [])],
      egress: { allow: allowFor(project, tool, o.tools, o.env), runTools: o.runTools ?? '', ...(core.baseUrl ? { preview: `${core.baseUrl}${previewPath(run.runId)}` } : {}) }, onRefused: o.onRefused,
      ...(o.ingress ? { ingress: o.ingress } : {}),
    }),
  };
};
