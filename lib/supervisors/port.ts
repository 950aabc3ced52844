import type { AgentSupervisor, SupervisorsPort } from './agent/port.js';
import type { RunBrief } from './agent/prompt.js';
import type { RunState } from '../../projections/run-state.js';
import { needsAttention, standingOf } from '../../projections/standing.js';
import type { SupervisorState } from '../../projections/supervisor.js';
import { WAKING_CHAT_EVENTS, type SupervisorChatEvent } from '../../journal/supervisor-chat-events.js';
import { decodeChatEntry, chatOwner, chatStream, describeChatEntry } from './chat.js';
import type { Supervisors } from '../state/supervisors.js';

// The live agent's view of the supervisor records (lib/supervisors/agent/port.ts), over the real records: the
// supervisors, their chat streams, ownership, the reasons actions are held (switched off, paused, at the limit), and the ledger.

/** runs shown in a turn's brief: at most this many, those still going or needing attention first */
const BRIEF_RUNS = 30;

const agentView = (sups: Supervisors, s: SupervisorState): AgentSupervisor => ({
  id: s.id, key: sups.keys.get(s.id) ?? '', project: s.project, harness: s.settings.harness, model: s.settings.model,
  wakeOn: s.settings.wakeOn, quotaFallbacks: s.settings.quotaFallbacks, notes: s.notes,
});

const brief = (r: RunState): RunBrief => ({
  id: r.runId, title: r.title, standing: standingOf(r),
  ...(r.question ? { question: r.question.prompt } : {}),
  ...(r.lifecycle === 'ended' && r.ending === 'Failed' && r.endReason ? { failure: r.endReason } : {}),
});

const inBrief = (r: RunState): boolean => !r.archived && (r.lifecycle !== 'ended' || needsAttention(r));

export const supervisorsPort = (sups: Supervisors): SupervisorsPort => ({
  list: () => sups.all().map((s) => agentView(sups, s)),
  find: (id) => {
    const s = sups.get(id);
    return s ? agentView(sups, s) : undefined;
  },
  chatStream,
  chatOwner,
  ownerOf: (runId) => sups.ownerOfRun(runId),
  heldBecause: (id) => sups.heldBecause(id),
  ownedRuns: (id) => sups.ownedRuns(id).filter(inBrief).slice(0, BRIEF_RUNS).map(brief),
  isWake: (type) => WAKING_CHAT_EVENTS.has(type),
  describe: (type, data) => {
    const e = decodeChatEntry({ seq: 0, at: '', type, data });
    return e ? describeChatEntry(e as SupervisorChatEvent) : undefined;
  },
  recordCost: (id, turnId, cost, at, usage) => void sups.recordCost(id, turnId, cost, at, usage),
});
