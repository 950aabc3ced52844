import * as t from 'io-ts';
import { HARNESSES } from '../domain/workflow.js';
import { ACTION_SETTINGS, RUN_WAKE_KINDS, TIERS, type SupervisorPatch } from '../domain/supervisor.js';
import type { SettingSource } from '../domain/settings.js';
import { oneOf, withOptional } from './codec-util.js';
import type { TurnTokens, UsageCost } from './run-events.js';
import type { HarnessName } from '../domain/workflow.js';

// A supervisor's own journal (stream `supervisor:<id>`): its creation, each change of its
// settings with who sent it (like settings), its key's rotations (the key itself lives in an
// owner-only file, never in the journal), its notes, and the spending ledger: one event per cost,
// filed under the local day it was spent.

const Source = t.type({ via: oneOf(['http', 'mcp', 'cli'] as const), sender: t.union([t.string, t.null]) });
const Harness = oneOf(HARNESSES);
const Tier = oneOf(TIERS);
const partialOf = <K extends string, C extends t.Mixed>(keys: readonly K[], codec: C) =>
  t.partial(Object.fromEntries(keys.map((k) => [k, codec])) as Record<K, C>);

export const PatchCodec = t.partial({
  enabled: t.boolean,
  pausedUntil: t.union([t.string, t.null]),
  actions: partialOf(ACTION_SETTINGS, Tier),
  runCap: t.number,
  dailyLimitUsd: t.number,
  quotaFallbacks: t.array(Harness),
  harness: t.union([Harness, t.null]),
  model: t.union([t.string, t.null]),
  wakeOn: partialOf(RUN_WAKE_KINDS, t.boolean),
});

// Known: a cost recorded before its source was kept (old journals); new ones say Reported or Priced
export const CostCodec = t.union([
  t.type({ _tag: t.literal('Known'), usd: t.number }), t.type({ _tag: t.literal('Reported'), usd: t.number }),
  t.type({ _tag: t.literal('Priced'), usd: t.number }), t.type({ _tag: t.literal('Unknown'), why: t.string }),
]);
const Tokens = t.type({ input: t.number, cachedInput: t.number, output: t.number });

export const SUPERVISOR_EVENT_CODECS = {
  SupervisorCreated: t.type({ supervisorId: t.string, project: t.union([t.string, t.null]), source: Source }),
  SupervisorChanged: t.type({ patch: PatchCodec, source: Source }),
  SupervisorKeyRegenerated: t.type({ source: Source }),
  SupervisorNotesKept: t.type({ text: t.string, source: Source }),
  /** day: the local calendar day (YYYY-MM-DD) the cost counts against */
  /** tokens, harness, model: a turn's usage, as a run's UsageRecorded has it (absent in old journals) */
  CostRecorded: withOptional({ day: t.string, cost: CostCodec, turnId: t.union([t.string, t.null]) }, { tokens: t.union([Tokens, t.null]), harness: Harness, model: t.string }),
} as const;

export type SupervisorCost = UsageCost | { readonly _tag: 'Known'; readonly usd: number };
/** what a supervisor turn used, beside its cost */
export interface SupervisorTurnUsage { readonly tokens?: TurnTokens | null; readonly harness?: HarnessName; readonly model?: string }

export type SupervisorEvent =
  | { readonly type: 'SupervisorCreated'; readonly data: { readonly supervisorId: string; readonly project: string | null; readonly source: SettingSource } }
  | { readonly type: 'SupervisorChanged'; readonly data: { readonly patch: SupervisorPatch; readonly source: SettingSource } }
  | { readonly type: 'SupervisorKeyRegenerated'; readonly data: { readonly source: SettingSource } }
  | { readonly type: 'SupervisorNotesKept'; readonly data: { readonly text: string; readonly source: SettingSource } }
  | { readonly type: 'CostRecorded'; readonly data: { readonly day: string; readonly cost: SupervisorCost; readonly turnId: string | null } & SupervisorTurnUsage };
