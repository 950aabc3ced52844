// A supervisor's settings and the words the rules use. One global supervisor (id `global`) and
// at most one per project. Defaults are the safe ones: every action asks first, a small cap on
// its own runs, a small daily spending limit.
import type { HarnessName } from './workflow.js';

export const GLOBAL_SUPERVISOR = 'global';

// Which events on a run wake the supervisor that owns it, each kind switchable (`wakeOn`, every
// kind on by default); what each wake says is lib/supervisors/agent/wakes.ts.
export const RUN_WAKE_KINDS = ['question', 'failed', 'gate', 'checksFailed'] as const;
export type RunWakeKind = (typeof RUN_WAKE_KINDS)[number];
export type WakeOn = Readonly<Record<RunWakeKind, boolean>>;

export const DEFAULT_WAKE_ON: WakeOn = { question: true, failed: true, gate: true, checksFailed: true };

export const TIERS = ['DoIt', 'AskFirst', 'Never'] as const;
export type Tier = (typeof TIERS)[number];

/** the spec's five action settings ("What it may do"), in the order its table lists them */
export const ACTION_SETTINGS = ['messageAndControl', 'secureWork', 'switchHarness', 'startRuns', 'archiveRuns'] as const;
export type ActionSetting = (typeof ACTION_SETTINGS)[number];
export type Actions = Readonly<Record<ActionSetting, Tier>>;

export const DEFAULT_ACTIONS: Actions = { messageAndControl: 'AskFirst', secureWork: 'AskFirst', switchHarness: 'AskFirst', startRuns: 'AskFirst', archiveRuns: 'AskFirst' };
export const DEFAULT_RUN_CAP = 2;
export const DEFAULT_DAILY_LIMIT_USD = 5;
export const MAX_NOTES = 20_000;

/** what a person can change (PATCH /api/supervisors/{id}) */
export interface SupervisorSettings {
  readonly enabled: boolean;
  /** paused for the day: until the next local midnight, or null */
  readonly pausedUntil: string | null;
  readonly actions: Actions;
  /** its own runs at work (started by it, not ended) at most */
  readonly runCap: number;
  readonly dailyLimitUsd: number;
  /** harnesses its turns fall back to on quota, and the only ones ChangeHarness may move a run to */
  readonly quotaFallbacks: readonly HarnessName[];
  /** its own turns' harness and model; null: the default harness, the harness's default model */
  readonly harness: HarnessName | null;
  readonly model: string | null;
  readonly wakeOn: WakeOn;
}

export const DEFAULT_SUPERVISOR_SETTINGS: SupervisorSettings = {
  enabled: true, pausedUntil: null, actions: DEFAULT_ACTIONS, runCap: DEFAULT_RUN_CAP, dailyLimitUsd: DEFAULT_DAILY_LIMIT_USD,
  quotaFallbacks: [], harness: null, model: null, wakeOn: DEFAULT_WAKE_ON,
};

/** a change to some settings; `actions` and `wakeOn` may name only some of their keys */
export interface SupervisorPatch {
  readonly enabled?: boolean;
  readonly pausedUntil?: string | null;
  readonly actions?: Partial<Actions>;
  readonly runCap?: number;
  readonly dailyLimitUsd?: number;
  readonly quotaFallbacks?: readonly HarnessName[];
  readonly harness?: HarnessName | null;
  readonly model?: string | null;
  readonly wakeOn?: Partial<WakeOn>;
}

/** the local calendar day of an instant, YYYY-MM-DD: the spending ledger's day */
export const localDay = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** the next local midnight after an instant: when a pause for the day ends */
export const nextLocalMidnight = (d: Date): string => new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, 0, 0, 0, 0).toISOString();
