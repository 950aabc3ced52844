// Quota: a turn that fails for quota is run again on the first harness of the supervisor's
// quotaFallbacks that is ready now (asked at that moment), each harness at most once. The retry
// starts a fresh session with the fresh prompt, and without the model chosen for the old harness.
import type { HarnessName } from '../../../domain/workflow.js';
import { runSupervisorTurn, type SupervisorTurnDeps, type SupervisorTurnRequest, type SupervisorTurnResult } from './turn.js';

export interface FallbackRequest extends SupervisorTurnRequest {
  /** the prompt for a turn that cannot resume the session (another harness) */
  readonly freshPrompt: string;
  readonly quotaFallbacks: readonly HarnessName[];
  /** told before each retry, for the chat */
  readonly onFallback?: (from: HarnessName, to: HarnessName, why: string) => void;
}

export interface FallbackResult extends SupervisorTurnResult {
  /** harnesses tried, in order */
  readonly tried: readonly HarnessName[];
}

const readyNow = async (deps: SupervisorTurnDeps, name: HarnessName): Promise<boolean> => {
  const adapter = deps.harness(name);
  if (!adapter) return false;
  const a = await adapter.check().catch(() => undefined);
  return a?._tag === 'Ready';
};

const nextReady = async (deps: SupervisorTurnDeps, fallbacks: readonly HarnessName[], tried: readonly HarnessName[]): Promise<HarnessName | undefined> => {
  for (const h of fallbacks) if (!tried.includes(h) && (await readyNow(deps, h))) return h;
  return undefined;
};

export const runWithFallbacks = async (deps: SupervisorTurnDeps, req: FallbackRequest): Promise<FallbackResult> => {
  const tried: HarnessName[] = [req.harness];
  let result = await runSupervisorTurn(deps, req);
  while (result.failure === 'quota' && !req.signal.aborted) {
    const next = await nextReady(deps, req.quotaFallbacks, tried);
    if (!next) break;
    req.onFallback?.(result.harness, next, result.summary);
    tried.push(next);
    const { model: _dropped, resumeSession: _session, sessionTotals: _totals, ...rest } = req;
    result = await runSupervisorTurn(deps, { ...rest, harness: next, prompt: req.freshPrompt });
  }
  return { ...result, tried };
};
