import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { SupervisorCost, SupervisorEvent, SupervisorTurnUsage } from '../journal/supervisor-events.js';
import { applyPatch, type SupervisorState } from '../projections/supervisor.js';
import type { SettingSource } from '../domain/settings.js';
import { GLOBAL_SUPERVISOR, MAX_NOTES, type SupervisorPatch, type SupervisorSettings } from '../domain/supervisor.js';
import { conflict, invalid, notFound, type Refusal } from './refusal.js';
import { quoted } from '../domain/quoted.js';

// Creating a supervisor, changing its settings, rotating its key, keeping its notes, and the
// spending ledger. Facts that need I/O (does the project exist, which supervisors exist) arrive on
// the command. Every change carries its source, as settings changes do.

export type SupervisorDecision = Either<Refusal, SupervisorEvent[]>;

export const MAX_RUN_CAP = 64;
export const MAX_DAILY_LIMIT_USD = 10_000;

export interface CreateSupervisor {
  readonly supervisorId: string;
  /** null: the global supervisor */
  readonly project: string | null;
  readonly projectExists: boolean;
  /** the supervisor that already holds this place (the project's, or the global one), if any */
  readonly existing: string | null;
  readonly source: SettingSource;
}

export const decideCreateSupervisor = (c: CreateSupervisor): SupervisorDecision => {
  if (c.project !== null && !c.projectExists) return left(notFound('project', c.project));
  if (c.existing) return left(conflict(c.project === null ? `the global supervisor exists already (${c.existing})` : `project ${quoted(c.project)} has a supervisor already (${c.existing})`));
  const supervisorId = c.project === null ? GLOBAL_SUPERVISOR : c.supervisorId;
  return right([{ type: 'SupervisorCreated', data: { supervisorId, project: c.project, source: c.source } }]);
};

// The first thing wrong with settings after a change, or null.
const problem = (s: SupervisorSettings): string | null => {
  if (!Number.isInteger(s.runCap) || s.runCap < 0 || s.runCap > MAX_RUN_CAP) return `runCap must be a whole number from 0 to ${MAX_RUN_CAP}`;
  if (!Number.isFinite(s.dailyLimitUsd) || s.dailyLimitUsd < 0 || s.dailyLimitUsd > MAX_DAILY_LIMIT_USD) return `dailyLimitUsd must be a number of dollars from 0 to ${MAX_DAILY_LIMIT_USD}`;
  if (new Set(s.quotaFallbacks).size !== s.quotaFallbacks.length) return 'quotaFallbacks must not name a harness twice';
  if (s.model !== null && (s.model.trim() === '' || s.model.length > 200)) return 'model must be a non-blank name of at most 200 characters, or null';
  if (s.model !== null && s.harness === null) return 'model needs harness: a model belongs to one harness (set harness, or model null)';
  return null;
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export const decideChangeSupervisor = (s: SupervisorState | null, c: { supervisorId: string; patch: SupervisorPatch; source: SettingSource }): SupervisorDecision => {
  if (!s) return left(notFound('supervisor', c.supervisorId));
  const next = applyPatch(s.settings, c.patch);
  const bad = problem(next);
  if (bad) return left(invalid(bad));
  if (same(next, s.settings)) return right([]);
  return right([{ type: 'SupervisorChanged', data: { patch: c.patch, source: c.source } }]);
};

export const decideRegenerateKey = (s: SupervisorState | null, c: { supervisorId: string; source: SettingSource }): SupervisorDecision =>
  s ? right([{ type: 'SupervisorKeyRegenerated', data: { source: c.source } }]) : left(notFound('supervisor', c.supervisorId));

export const decideKeepNotes = (s: SupervisorState | null, c: { supervisorId: string; text: string; source: SettingSource }): SupervisorDecision => {
  if (!s) return left(notFound('supervisor', c.supervisorId));
  if (c.text.length > MAX_NOTES) return left(invalid(`notes are at most ${MAX_NOTES} characters (got ${c.text.length})`));
  return c.text === s.notes ? right([]) : right([{ type: 'SupervisorNotesKept', data: { text: c.text, source: c.source } }]);
};

/** day: the local day of the moment the cost was spent (domain/supervisor.ts localDay) */
export const decideRecordCost = (s: SupervisorState | null, c: { supervisorId: string; day: string; cost: SupervisorCost; turnId: string | null; usage?: SupervisorTurnUsage }): SupervisorDecision => {
  if (!s) return left(notFound('supervisor', c.supervisorId));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(c.day)) return left(invalid(`day must be YYYY-MM-DD (got ${quoted(c.day)})`));
  if (c.cost._tag !== 'Unknown' && !(Number.isFinite(c.cost.usd) && c.cost.usd >= 0)) return left(invalid('a known cost is a non-negative number of dollars'));
  // a turn's cost is recorded once; turns run one at a time, so the last recorded turn is the one a retry repeats
  if (c.turnId !== null && c.turnId === s.lastCostTurn) return right([]);
  return right([{ type: 'CostRecorded', data: { day: c.day, cost: c.cost, turnId: c.turnId, ...c.usage } }]);
};
