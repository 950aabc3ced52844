// What the live agent needs from the supervisor records (records, settings, ownership, ledger), as
// one small interface so the agent's loop does not reach into how lib/supervisors stores them.
import type { HarnessName } from '../../../domain/workflow.js';
import type { RunBrief } from './prompt.js';
import type { SupervisorTurnUsage } from '../../../journal/supervisor-events.js';
import type { UsageCost } from '../../../journal/run-events.js';
import type { WakeOn } from '../../../domain/supervisor.js';

export interface AgentSupervisor {
  readonly id: string;
  readonly key: string;
  /** null for the global supervisor */
  readonly project: string | null;
  readonly harness: HarnessName | null;
  readonly model: string | null;
  readonly wakeOn: WakeOn;
  readonly quotaFallbacks: readonly HarnessName[];
  readonly notes: string;
}

export interface SupervisorsPort {
  list(): readonly AgentSupervisor[];
  find(id: string): AgentSupervisor | undefined;
  /** the chat stream's journal name */
  chatStream(id: string): string;
  /** the supervisor id a chat stream belongs to, or undefined for other streams */
  chatOwner(stream: string): string | undefined;
  /** the owning supervisor of a run, or null */
  ownerOf(runId: string): string | null;
  /** why turns and actions may not happen now (feature off, switched off, paused, at the limit), or null */
  heldBecause(id: string): string | null;
  ownedRuns(id: string): readonly RunBrief[];
  /** the chat entry types (the records') that wake the supervisor: hand_up arriving, an approval decision */
  isWake(type: string): boolean;
  /** one line for the prompt from an entry of the records' types */
  describe(type: string, data: unknown): string | undefined;
  recordCost(id: string, turnId: string, cost: UsageCost, at: string, usage?: SupervisorTurnUsage): void;
}
