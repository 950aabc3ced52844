import type { SupervisorEvent } from '../journal/supervisor-events.js';
import { DEFAULT_SUPERVISOR_SETTINGS, type SupervisorPatch, type SupervisorSettings } from '../domain/supervisor.js';

// One supervisor, folded from its journal: settings, notes, when its key last changed, and the
// spending ledger summed per local day (the last DAYS_KEPT days; older days no rule reads).

const DAYS_KEPT = 31;

export interface DaySpend {
  readonly usd: number;
  /** costs that could not be known (recorded, never counted as zero dollars... nor as more) */
  readonly unknown: number;
}

export interface SupervisorState {
  readonly id: string;
  /** null for the global supervisor */
  readonly project: string | null;
  readonly createdAt: string;
  readonly settings: SupervisorSettings;
  readonly notes: string;
  readonly keyChangedAt: string;
  readonly spent: Readonly<Record<string, DaySpend>>;
  /** the turn whose cost was recorded last: a repeat of that record is not counted twice */
  readonly lastCostTurn?: string | null;
  readonly seq: number;
}

export const applyPatch = (s: SupervisorSettings, p: SupervisorPatch): SupervisorSettings => ({
  ...s,
  ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
  ...(p.pausedUntil !== undefined ? { pausedUntil: p.pausedUntil } : {}),
  ...(p.actions ? { actions: { ...s.actions, ...p.actions } } : {}),
  ...(p.runCap !== undefined ? { runCap: p.runCap } : {}),
  ...(p.dailyLimitUsd !== undefined ? { dailyLimitUsd: p.dailyLimitUsd } : {}),
  ...(p.quotaFallbacks ? { quotaFallbacks: p.quotaFallbacks } : {}),
  ...(p.harness !== undefined ? { harness: p.harness } : {}),
  ...(p.model !== undefined ? { model: p.model } : {}),
  ...(p.wakeOn ? { wakeOn: { ...s.wakeOn, ...p.wakeOn } } : {}),
});

const spend = (spent: SupervisorState['spent'], day: string, known: number, unknown: number): SupervisorState['spent'] => {
  const was = spent[day] ?? { usd: 0, unknown: 0 };
  const all = { ...spent, [day]: { usd: was.usd + known, unknown: was.unknown + unknown } };
  const days = Object.keys(all).sort().slice(-DAYS_KEPT);
  return Object.fromEntries(days.map((d) => [d, all[d]!]));
};

export const evolveSupervisor = (s: SupervisorState | null, e: SupervisorEvent, at: string, seq: number): SupervisorState | null => {
  const next = evolve(s, e, at);
  return next ? { ...next, seq } : null;
};

const evolve = (s: SupervisorState | null, e: SupervisorEvent, at: string): SupervisorState | null => {
  if (e.type === 'SupervisorCreated') {
    return { id: e.data.supervisorId, project: e.data.project, createdAt: at, settings: DEFAULT_SUPERVISOR_SETTINGS, notes: '', keyChangedAt: at, spent: {}, seq: 0 };
  }
  if (!s) return null;
  switch (e.type) {
    case 'SupervisorChanged': return { ...s, settings: applyPatch(s.settings, e.data.patch) };
    case 'SupervisorKeyRegenerated': return { ...s, keyChangedAt: at };
    case 'SupervisorNotesKept': return { ...s, notes: e.data.text };
    case 'CostRecorded':
      return { ...s, lastCostTurn: e.data.turnId ?? null, spent: spend(s.spent, e.data.day, e.data.cost._tag === 'Unknown' ? 0 : e.data.cost.usd, e.data.cost._tag === 'Unknown' ? 1 : 0) };
  }
};

export const spentOn = (s: SupervisorState, day: string): number => s.spent[day]?.usd ?? 0;
