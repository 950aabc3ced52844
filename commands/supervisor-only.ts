import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../journal/run-events.js';
import type { Actor } from '../domain/runs.js';
import { forbidden, notFound, type Refusal } from './refusal.js';
import { decideOwnsRun } from './supervisor-ownership.js';
import { decideReason } from './supervisor-reason.js';

// The four supervisor-only tools: who has each (spec, Supervisor-only tools), and hand_over_run's
// decide. None of them is an action: they work while the supervisor is switched off, paused or at its limit.

export const SUPERVISOR_ONLY_TOOLS = ['keep_supervisor_notes', 'hand_up', 'hand_over_run', 'read_supervisor_activity'] as const;
export type SupervisorOnlyTool = (typeof SUPERVISOR_ONLY_TOOLS)[number];

export const isSupervisorOnlyTool = (name: string): name is SupervisorOnlyTool => (SUPERVISOR_ONLY_TOOLS as readonly string[]).includes(name);

/** project: null for the global supervisor */
export const hasTool = (tool: SupervisorOnlyTool, project: string | null): boolean => {
  switch (tool) {
    case 'keep_supervisor_notes': return true;
    case 'hand_up': case 'hand_over_run': return project !== null;
    case 'read_supervisor_activity': return project === null;
  }
};

export const toolRefusal = (tool: SupervisorOnlyTool, id: string): Refusal =>
  forbidden(`${tool} is for ${tool === 'read_supervisor_activity' ? 'the global supervisor' : 'project supervisors'} only; supervisor ${id} does not have it`);

export interface HandOver {
  readonly supervisor: { readonly id: string; readonly project: string | null };
  readonly run: { readonly id: string; readonly owner: string | null };
  /** the global supervisor, or null while none exists */
  readonly global: string | null;
  readonly reason: string | undefined;
  readonly by: Actor;
}

/** hand_over_run: a project supervisor gives a run it owns to the global supervisor */
export const decideHandOver = (c: HandOver): Either<Refusal, RunEvent[]> => {
  if (c.supervisor.project === null) return left(toolRefusal('hand_over_run', c.supervisor.id));
  const refused = decideReason('hand_over_run', c.reason) ?? decideOwnsRun(c.supervisor.id, c.run);
  if (refused) return left(refused);
  if (c.global === null) return left(notFound('supervisor', 'global (switch supervisors on to make it)'));
  return right([{ type: 'RunHandedOver', data: { from: c.supervisor.id, to: c.global, reason: c.reason!.trim(), by: c.by } }]);
};
