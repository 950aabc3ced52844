import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Actions, ActionSetting } from '../domain/supervisor.js';
import type { HarnessName } from '../domain/workflow.js';
import { forbidden, type Refusal } from './refusal.js';
import { decideHarnessMove, decideRunCap } from './supervisor-limits.js';
import { decideMayStartIn, decideOwnsRun } from './supervisor-ownership.js';
import { decideReason } from './supervisor-reason.js';
import { decideTier, settingOf, type ActingTool } from './supervisor-tiers.js';

// May supervisor S take this action now, and at which tier? Rules 1, 2, 3, 6, 7, 8, 9 and 10 in
// one pure answer, asked by the tool endpoint before it acts, by an approval before it carries a
// call out, and by the app (GET /api/supervisors/{id}/may) before it offers anything.

export interface ActingSupervisor {
  readonly id: string;
  readonly project: string | null;
  readonly actions: Actions;
  readonly runCap: number;
  readonly quotaFallbacks: readonly HarnessName[];
}

export interface ActionFacts {
  readonly supervisor: ActingSupervisor;
  /** why actions are held: switched off, paused for the day or at the spending limit (commands/supervisor-held.ts), or null */
  readonly held: string | null;
  readonly tool: ActingTool;
  readonly action?: string;
  readonly harness?: HarnessName;
  readonly reason: string | undefined;
  /** the run acted on: every acting tool but start_run */
  readonly run?: { readonly id: string; readonly owner: string | null };
  /** start_run: the project, and who would own a run started in it */
  readonly project?: { readonly id: string; readonly owner: string | null };
  /** its own runs at work now */
  readonly runsAtWork: number;
  /** start_run: how many runs the call would start (its attempts; one when absent) */
  readonly starting?: number;
  /** ChangeHarness: why the target harness is not ready, or null when it is */
  readonly harnessNotReady?: string | null;
  /** a person approved this very call: AskFirst goes ahead */
  readonly approved?: boolean;
}

export interface Verdict {
  readonly setting: ActionSetting;
  readonly tier: 'DoIt' | 'AskFirst';
}

const first = (...checks: (() => Refusal | null)[]): Refusal | null => {
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
};

export const decideSupervisorAction = (f: ActionFacts): Either<Refusal, Verdict> => {
  const s = f.supervisor;
  const setting = settingOf(f.tool, f.action);
  const refused = first(
    () => decideReason(f.tool, f.reason),
    () => (f.held ? forbidden(`actions are refused now: ${f.held}`) : null),
    () => (f.tool === 'start_run' ? (f.project ? decideMayStartIn(s.id, f.project) : null) : f.run ? decideOwnsRun(s.id, f.run) : forbidden(`${f.tool} names no run`)),
  );
  if (refused) return left(refused);
  const tier = decideTier(s.actions, setting);
  if (isLeft(tier)) return tier;
  const limit = first(
    () => (f.tool === 'start_run' ? decideRunCap(s.runCap, f.runsAtWork, f.starting ?? 1) : null),
    () => (setting === 'switchHarness' && f.harness ? decideHarnessMove(s.quotaFallbacks, f.harness, f.harnessNotReady ?? null) : null),
  );
  if (limit) return left(limit);
  return right({ setting, tier: f.approved ? 'DoIt' : tier.right });
};
