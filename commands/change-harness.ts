import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { findNode, type HarnessName } from '../domain/workflow.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, refuseAction, stopInFlight, type Decision } from './guards.js';
import { aboutToStart } from './jump.js';
import { unavailable } from './refusal.js';

/** The agent step ChangeHarness would retry: the one in flight, the one the run is at, or the one that failed. */
export const retryableAgentNode = (s: RunDecideState): string | null => {
  const id = s.step?.node ?? s.node ?? s.previous?.node ?? null;
  return id && findNode(s.workflow, id)?.kind === 'agent' ? id : null;
};

// ChangeHarness retries the current agent step on another harness, and only on one that is ready
// (`available` is null when ready, else why not: the caller asked the adapter).
export const decideChangeHarness = (s: RunDecideState, c: CommandContext & { harness: HarnessName; available: string | null }): Decision => {
  const reopenable = s.lifecycle === 'active' || (s.lifecycle === 'ended' && s.ending === 'Failed');
  if (!reopenable || retryableAgentNode(s) === null) return refuseAction('ChangeHarness');
  // the step is about to start again on this harness already: the change is made
  if (s.harnessOverride === c.harness && aboutToStart(s, retryableAgentNode(s)!)) return nothing();
  if (c.available !== null) return left(unavailable(`harness ${c.harness} is not available: ${c.available}`));
  return accept(...stopInFlight(s, `harness changed to ${c.harness}`), { type: 'HarnessChanged', data: { harness: c.harness, ...byAndWhy(c) } });
};
