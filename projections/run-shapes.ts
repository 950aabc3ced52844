import type { UsageView } from './run-usage.js';
import type { MachineView } from './run-machines.js';
import type { Action, PullRequestLoopView, PullRequestRef, QuotaWaitingOn, StartedBy, StepSettings, ForkLink, Standing } from '../domain/runs.js';

// The shapes a run is read in: the MCP list and detail shapes and the HTTP one (lib/read-models/run-views.ts builds them).

/** MCP list shape */
export interface RunSummary {
  readonly id: string;
  readonly title: string;
  readonly workflow: string;
  readonly project: string; // project name
  readonly standing: Standing;
  readonly phase: string;
  readonly currentStep: string | null;
  readonly pullRequest: PullRequestRef | null;
  readonly pullRequests: readonly PullRequestRef[];
}

/** MCP detail shape (get_run) */
export interface RunDetail extends RunSummary {
  readonly projectId: string;
  /** whether the latest agent or command step ran in svc's sandbox, and why not (docs/sandbox.md) */
  readonly sandbox?: { readonly sandboxed: boolean; readonly reason?: string };
  readonly goal: string;
  readonly outcome?: string;
  readonly archived: boolean;
  readonly resolved: boolean;
  readonly currentStepToolClasses: readonly string[];
  readonly currentStepSettings: StepSettings | null;
  readonly allowedActions: readonly Action[];
  /** whether a goal revision would be taken now (the run has not ended, its history reads) */
  readonly canReviseGoal: boolean;
  readonly question?: { readonly id: string; readonly prompt: string; readonly options: readonly string[]; readonly allowText: boolean };
  readonly waitEndsAt?: string;
  /** why the run waits on a harness's quota window: a quota wait (until its waitEndsAt) or the queue holding it (docs/usage.md) */
  readonly waitingOn?: QuotaWaitingOn;
  /** a deliver step watching its pull request (docs/shipping.md): "watching pull request #4", "cycle 2 of 3: fixing `lint`" */
  readonly pullRequestLoop?: PullRequestLoopView;
  readonly startedBy?: StartedBy;
  readonly position: string;
  /** the supervisor that owns the run (handed to, else its project's, else the global one); null when none exists */
  readonly owner: string | null;
  readonly unreadableHistory?: string;
  /** messages the run ended with still held, which no agent ever saw (only when there are any) */
  readonly undeliveredMessages?: readonly { readonly id: string; readonly text: string; readonly reason: string }[];
  /** a follow-up: the ended run it continues on the same branch and worktrees */
  readonly continues?: string;
  /** the follow-ups made of this run, oldest first (only when there are any) */
  readonly continuedBy?: readonly string[];
  /** one of several attempts at the goal started together: its group, place, and whether it was kept */
  readonly attempt?: { readonly group: string; readonly index: number; readonly of: number; readonly kept: boolean };
  /** what its agent turns cost, in total and per step (docs/usage.md) */
  readonly usage: UsageView;
  /** the run's budget in US dollars, with what it has spent of it */
  readonly budget?: { readonly budgetUsd: number; readonly text: string };
  /** why the run is paused, while it is (a person's reason, a harness problem, `budget: ...`) */
  readonly pauseReason?: string;
  /** why a queued run is not started although a slot may be free (its project's daily budget) */
  readonly waiting?: string;
  /** a fork: the run and step end (seq, step) it was made from, and the note it was given */
  readonly forkedFrom?: ForkLink;
  /** the forks made of this run, oldest first (only when there are any) */
  readonly forks?: readonly string[];
  /** the step ends a fork can start from (each folder snapshotted), oldest first (only when there are any) */
  readonly forkable?: readonly { readonly at: number; readonly stepId: string; readonly node: string; readonly outcome: 'success' | 'failure' }[];
  /** a restart: the run this one restarts */
  readonly restartOf?: string;
  /** restarted: the new run that restarts this one */
  readonly restartedAs?: string;
  /** the runs this one names (follow-ups, forks, restarts), by id: their titles, so the app links them by title */
  readonly linked?: Readonly<Record<string, LinkedRun>>;
  /** the local merges of the run's branches (Merge locally), oldest first (only when there are any) */
  readonly merged?: readonly { readonly folder: string; readonly base: string; readonly commit: string; readonly method: string; readonly at: string }[];
  /** where its steps ran and where its next one goes, once this hub has workers (docs/workers.md) */
  readonly machine?: MachineView;
}

/**
 * a run another run's detail names: enough to link it by its title. Only what does not change
 * (a detail is rebuilt when its own run moves, not when a linked one does).
 */
export interface LinkedRun { readonly title: string; readonly forkStep?: string }

/** HTTP API shape */
export interface HttpRun {
  readonly runId: string;
  readonly title: string;
  readonly workflowName: string;
  readonly goal: string;
  readonly project: string; // project id
  readonly standing: Standing;
  readonly phase: string;
  readonly currentStep: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly outcome?: string;
  readonly startedBy?: StartedBy;
  readonly continues?: string;
  readonly continuedBy?: readonly string[];
  /** GET /api/runs/{id} only (not the list): what its agent turns cost */
  readonly usage?: UsageView;
}
