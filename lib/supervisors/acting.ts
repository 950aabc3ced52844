import { chain, isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { notFound, refusalText, type Refusal } from '../../commands/refusal.js';
import { decideSupervisorAction, type ActionFacts, type Verdict } from '../../commands/supervisor-action.js';
import type { ActingTool } from '../../commands/supervisor-tiers.js';
import { findProject } from '../../projections/projects.js';
import { availabilityText } from '../service/core.js';
import type { SupervisorService } from './service-port.js';
import type { HarnessName } from '../../domain/workflow.js';
import { appendChat } from './chat.js';
import { issueAs, type Args } from './issue.js';

export type { Args } from './issue.js';

// A supervisor's acting call (start, control, message, answer, revise, secure, archive, resolve):
// gather the facts, ask decideSupervisorAction, then act now (DoIt) or post an approval card
// (AskFirst). An approved card is carried out here too, as that supervisor, by issuing the command
// it names (issue.ts).

export const str = (a: Args, k: string): string | undefined => (typeof a[k] === 'string' ? (a[k] as string) : undefined);

/** the facts a call is decided on, or why it names nothing that exists */
export const factsOf = (service: SupervisorService, id: string, tool: ActingTool, a: Args, approved = false): Either<Refusal, ActionFacts> => {
  const core = service.core;
  const sups = core.supervisors;
  const s = sups.get(id);
  if (!s) return left(notFound('supervisor', id));
  const base = {
    supervisor: { id, project: s.project, ...s.settings }, held: sups.heldBecause(id), tool, reason: str(a, 'reason'),
    runsAtWork: sups.runsAtWork(id), approved,
    ...(str(a, 'action') ? { action: str(a, 'action')! } : {}),
  };
  if (tool === 'start_run') {
    const p = findProject(core.projects.current, str(a, 'project') ?? '');
    if (!p) return left(notFound('project', str(a, 'project') ?? ''));
    const starting = Array.isArray(a['attempts']) ? a['attempts'].length : 1;
    return right({ ...base, project: { id: p.id, owner: sups.ownerOfNewRun(p.id) }, starting });
  }
  const runId = str(a, 'run') ?? '';
  const run = core.runs.get(runId);
  if (!run) return left(notFound('run', runId));
  const harness = str(a, 'harness') as HarnessName | undefined;
  return right({
    ...base, run: { id: runId, owner: sups.ownerOf(run) },
    ...(harness ? { harness, harnessNotReady: availabilityText(core.availability.get(harness)) } : {}),
  });
};

export const decided = (service: SupervisorService, id: string, tool: ActingTool, a: Args, approved: boolean): Either<Refusal, Verdict> => {
  return chain(decideSupervisorAction)(factsOf(service, id, tool, a, approved));
};

export interface CarriedOut {
  readonly result: 'Applied' | 'Stale' | 'Refused';
  readonly detail: string;
}

/** an approved card's call, carried out as the supervisor under the rules as they are now (its tier aside), by issuing its command */
export const carryOut = async (service: SupervisorService, id: string, tool: ActingTool, a: Args): Promise<CarriedOut> => {
  const v = decided(service, id, tool, a, true);
  if (isLeft(v)) return { result: 'Refused', detail: refusalText(v.left) };
  const r = await issueAs(service, id, tool, a);
  if (isLeft(r)) return { result: 'Refused', detail: refusalText(r.left) };
  if (r.right.stale) return { result: 'Stale', detail: 'the run moved past the position the call named; nothing was applied' };
  return { result: 'Applied', detail: r.right.summary };
};
