import { decideStartReadiness, readinessOf, type HarnessReadiness } from '../../commands/start-readiness.js';
import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { invalid, notFound, refusalText, type Outcome, type Refusal } from '../../commands/refusal.js';
import { findProject } from '../../projections/projects.js';
import type { Availability } from '../../domain/harness.js';
import { onPath } from '../on-path.js';
import type { ProjectView, StartRunInput } from '../../domain/runs.js';
import { resolveStepSettings } from '../workflows/step-settings.js';
import type { HarnessName, Workflow } from '../../domain/workflow.js';
import type { ServiceCore } from './core.js';
import { sandboxReadiness, sandboxStatus, type SandboxStatus } from './sandbox.js';

// What a start needs from the agent CLIs, read from the service's state for the pure rule in
// commands/start-readiness.ts. The same answer feeds the refusal and the New run form's warning.

/** the harness each agent step would run on (run > node > persona > workflow > settings > shipped), each once */
export const neededHarnesses = (core: ServiceCore, project: ProjectView, wf: Workflow, runHarness: HarnessName | undefined): HarnessName[] => {
  const defaultHarness = core.settings.current.defaultHarness;
  const needed = wf.nodes.filter((n) => n.kind === 'agent').map((node) => {
    const personaName = node.persona ?? wf.stepDefaults.persona;
    const persona = personaName ? core.workflows.persona(project, personaName) : undefined;
    return resolveStepSettings({
      run: runHarness ? { harness: runHarness } : {}, node, ...(persona ? { persona } : {}), workflow: wf.stepDefaults,
      settings: defaultHarness ? { defaultHarness } : {},
    }).harness.value;
  });
  return [...new Set(needed)];
};

// "Not there" is stale once the CLI is on PATH: it counts as not checked yet (allowed) and a new
// check is asked for, so installing and starting again just works. (A CLI that is there but
// fails its `--version` stays refused until a check says otherwise.)
const currentAvailability = (core: ServiceCore, needed: readonly HarnessName[]): Map<HarnessName, Availability> => {
  const now = new Map(core.availability);
  const stale = needed.filter((h) => {
    const a = now.get(h);
    const bin = core.harnesses[h]?.bin;
    return a?._tag === 'NotInstalled' && a.missing === true && bin !== undefined && onPath(bin);
  });
  for (const h of stale) now.delete(h);
  if (stale.length) void recheckHarnesses(core, stale);
  return now;
};

/** asks these harnesses again, in the background of whoever noticed they may have changed */
export const recheckHarnesses = async (core: ServiceCore, names: readonly HarnessName[]): Promise<void> => {
  await Promise.all(names.map(async (h) => {
    const a = await core.harnesses[h].check().catch((e: unknown): Availability => ({ _tag: 'NotInstalled', detail: String(e) }));
    core.availability.set(h, a);
  }));
};

export const startRefusal = (core: ServiceCore, project: ProjectView, wf: Workflow, input: StartRunInput): Refusal | null => {
  if (input.start === false) return null;
  const needed = neededHarnesses(core, project, wf, input.harness);
  return decideStartReadiness({ needed, availability: currentAvailability(core, needed), start: true, sandbox: sandboxReadiness(project) });
};

export interface StartNeeds {
  /** each harness the run's agent steps would use, and how ready it is */
  readonly harnesses: readonly HarnessReadiness[];
  /** what starting it now would be refused with, or null */
  readonly refusal: string | null;
  /** whether its steps will run in svc's sandbox, and why not (docs/sandbox.md) */
  readonly sandbox: SandboxStatus;
}

/** For the New run form, before starting: the same rule the start applies, with its words. */
export const startNeeds = (core: ServiceCore, q: { project: string; workflow?: string; harness?: HarnessName }): Outcome<StartNeeds> => {
  const project = findProject(core.projects.current, q.project);
  if (!project) return left(notFound('project', q.project));
  const wf = core.workflows.load(project, q.workflow ?? project.defaultWorkflow);
  if (isLeft(wf)) return left(invalid(wf.left));
  const needed = neededHarnesses(core, project, wf.right, q.harness);
  const availability = currentAvailability(core, needed);
  const refused = decideStartReadiness({ needed, availability, start: true, sandbox: sandboxReadiness(project) });
  return right({ harnesses: needed.map((h) => readinessOf(h, availability.get(h))), refusal: refused ? refusalText(refused) : null, sandbox: sandboxStatus(project) });
};
