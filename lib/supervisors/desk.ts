import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { notFound } from '../../commands/refusal.js';
import { decideHandOver, hasTool, toolRefusal } from '../../commands/supervisor-only.js';
import type { Outcome } from '../../commands/refusal.js';
import { detailOf } from '../read-models/run-detail.js';
import type { SupervisorService } from './service-port.js';
import { activityLines } from './activity.js';
import { appendChat } from './chat.js';

/** what the supervisor-only tools do, for the one supervisor calling (below) */
export interface SupervisorDesk {
  readonly id: string;
  keepNotes(text: string): Outcome<{ readonly kept: true }>;
  handUp(text: string): Outcome<{ readonly delivered: true }>;
  handOver(run: string, reason: string | undefined): Outcome<{ readonly run: unknown; readonly handedOver: true }>;
  activity(): Outcome<{ readonly lines: readonly string[] }>;
}

// The supervisor-only tools for one calling supervisor: notes, hand_up, hand_over_run and the
// activity lines. Each asks commands/supervisor-only.ts who may, then appends.

export const supervisorDesk = (service: SupervisorService, id: string): SupervisorDesk => {
  const core = service.core;
  const sups = core.supervisors;
  const at = () => core.now().toISOString();
  const self = () => sups.get(id);
  const globalId = () => sups.all().find((s) => s.project === null)?.id ?? null;
  const clip = (s: string, max = 160) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  return {
    id,
    keepNotes: (text) => {
      const r = sups.keepNotes(id, text, { via: 'mcp', sender: `supervisor ${id}` });
      return isLeft(r) ? r : right({ kept: true as const });
    },
    handUp: (text) => {
      const s = self();
      if (!s) return left(notFound('supervisor', id));
      if (!hasTool('hand_up', s.project)) return left(toolRefusal('hand_up', id));
      const g = globalId();
      if (!g) return left(notFound('supervisor', 'global (switch supervisors on to make it)'));
      appendChat(core.journal, g, [{ type: 'HandedUp', data: { from: id, project: s.project, text } }], at());
      appendChat(core.journal, id, [{ type: 'ActionTaken', data: { tool: 'hand_up', run: null, reason: '', summary: `handed up: ${clip(text)}` } }], at());
      return right({ delivered: true as const });
    },
    handOver: (runId, reason) => {
      const s = self();
      const run = core.runs.get(runId);
      if (!s) return left(notFound('supervisor', id));
      if (!run) return left(notFound('run', runId));
      const d = decideHandOver({ supervisor: s, run: { id: runId, owner: sups.ownerOf(run) }, global: globalId(), reason, by: { kind: 'supervisor', name: id } });
      if (isLeft(d)) return d;
      const next = core.runs.transact(runId, () => d, { at: at(), onStale: 'refuse' });
      const why = reason!.trim();
      appendChat(core.journal, globalId()!, [{ type: 'RunReceived', data: { from: id, run: runId, reason: why } }], at());
      appendChat(core.journal, id, [{ type: 'ActionTaken', data: { tool: 'hand_over_run', run: runId, reason: why, summary: 'handed over to the global supervisor' } }], at());
      return right({ run: detailOf(core, isLeft(next) ? run : (next.right.state ?? run)), handedOver: true as const });
    },
    activity: () => {
      const s = self();
      if (!s) return left(notFound('supervisor', id));
      if (!hasTool('read_supervisor_activity', s.project)) return left(toolRefusal('read_supervisor_activity', id));
      return right({ lines: activityLines(core.journal, sups.all()) });
    },
  };
};
