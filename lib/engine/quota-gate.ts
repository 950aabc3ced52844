import { backoffMs, type HoldQueued, type QuotaFacts } from '../../commands/quota.js';
import type { TurnResult } from '../harness/adapter.js';
import { firstNode } from '../../projections/run-decide-state.js';
import type { RunState } from '../../projections/run-state.js';
import { findNode, type HarnessName, type StepNode } from '../../domain/workflow.js';
import type { EngineDeps } from './deps.js';

// What the engine reads of the harnesses' quota windows for one run: the harness its next agent
// step would run on, the fallback it may switch to, and whether the queue must hold it.

/** the agent step the run is at, else the first agent step of its workflow (a queued run's first turn) */
const nextAgentNode = (s: RunState): StepNode | undefined => {
  const at = findNode(s.workflow, s.node ?? firstNode(s.workflow) ?? '');
  return at?.kind === 'agent' ? at : s.workflow.nodes.find((n) => n.kind === 'agent');
};

export const nextHarness = (deps: EngineDeps, s: RunState): HarnessName | undefined => {
  const node = nextAgentNode(s);
  return node ? deps.stepSettings(s, node).harness.value : undefined;
};

/** the first listed fallback (the workflow's, else the settings') that is ready and not limited */
export const fallbackFor = (deps: EngineDeps, s: RunState, current: HarnessName): HarnessName | undefined => {
  const listed = s.workflow.fallbackHarnesses ?? deps.settings().fallbackHarnesses ?? [];
  return listed.find((h) => h !== current && deps.windows.ready(h) && !deps.windows.limit(h));
};

// A run that can use another ready harness is not held back: it starts, and switches before its turn.
export const quotaHoldOf = (deps: EngineDeps, s: RunState): HoldQueued | undefined => {
  const harness = nextHarness(deps, s);
  const window = harness ? deps.windows.limit(harness) : null;
  if (!harness || !window || fallbackFor(deps, s, harness)) return undefined;
  return { harness, until: window.until };
};

/** what decideFinishStep needs of a quota failure: the CLI's words and reset, the clock, a fallback */
export const quotaFacts = (deps: EngineDeps, s: RunState, r: TurnResult): QuotaFacts => {
  const harness = s.step?.harness;
  const fallback = harness ? fallbackFor(deps, s, harness) : undefined;
  return {
    evidence: r.quota?.evidence ?? r.summary, now: deps.now().toISOString(),
    ...(r.quota?.resetsAt ? { resetsAt: r.quota.resetsAt } : {}), ...(fallback ? { fallback } : {}),
  };
};

// The harness's window after a turn: out of quota until the reset it named (else as long as the
// step's backoff), or over when a turn on it went through.
export const recordWindow = (deps: EngineDeps, after: RunState, r: TurnResult): void => {
  const harness = after.lastHarness;
  if (!harness) return;
  if (r.failure === 'quota') {
    const now = deps.now().getTime();
    const named = r.quota?.resetsAt && Date.parse(r.quota.resetsAt) > now ? r.quota.resetsAt : undefined;
    // the step's own wait, when it waits, so the window and the wait end together
    const waitEnd = after.step?.quota ? after.step.endsAt : undefined;
    const until = named ?? waitEnd ?? new Date(now + backoffMs(after.quotaAttempts ?? 1)).toISOString();
    deps.windows.limited(harness, until, r.quota?.evidence ?? r.summary, after.runId);
  } else if (r.outcome !== 'interrupted' && !r.failure && deps.windows.limit(harness)) deps.windows.seenBack(harness, after.runId);
};
