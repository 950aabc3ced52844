import type { PreviewCommand } from './preview.js';
import type { HarnessName, Origin } from './workflow.js';

// The words the whole service speaks about runs: standings, actions, who asked, and the plain
// inputs and links the decides, the views and the doors share.

export const STANDINGS = ['Created', 'Queued', 'Running', 'Question', 'Waiting', 'Paused', 'Succeeded', 'Failed', 'Aborted'] as const;
export type Standing = (typeof STANDINGS)[number];

export const ACTIONS = ['Pause', 'Resume', 'Retry', 'ChangeHarness', 'Jump', 'SkipWait', 'Restart', 'Abort', 'MoveToFront'] as const;
export type Action = (typeof ACTIONS)[number];

/** who asked: a person in the app or over HTTP, an outside agent over MCP, a supervisor, or the engine itself */
export interface Actor {
  readonly kind: 'person' | 'agent' | 'supervisor' | 'engine';
  readonly name?: string;
}

export interface PullRequestRef {
  readonly repository: string;
  readonly number: number;
  readonly url: string;
}

export interface SettingValue<T> {
  readonly value: T;
  /** run, node, persona, workflow, settings or shipped */
  readonly source: 'run' | 'node' | 'persona' | 'workflow' | 'settings' | 'shipped';
}

export interface StepSettings {
  readonly persona: SettingValue<string | null>;
  readonly harness: SettingValue<HarnessName>;
  readonly model: SettingValue<string | null>;
  readonly tools: SettingValue<string>;
}

/** the trigger rule and event that started a run; present only on runs a trigger started */
export interface StartedBy {
  readonly rule: { readonly id: string; readonly name: string };
  readonly event: { readonly kind: string; readonly id: string; readonly summary: string; readonly url?: string };
}

/** what a follow-up is asked to do: a person's text, or the message text of a review sent to an ended run */
/** `title`: the new run's title where the caller knows better than the text's first line (a review's) */
export type FollowUpWhat = { readonly text: string; readonly reason?: string } | { readonly review: string; readonly title?: string; readonly reason?: string };


export interface ForkLink {
  readonly run: string;
  readonly at: number;
  readonly step: string;
  readonly note?: string;
}

/** POST /api/runs/{id}/forks and fork_run, decoded */
export interface ForkInput {
  readonly at: number;
  readonly goal?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly note?: string;
  readonly reason?: string;
}

export interface PullRequestLoopView {
  readonly number: number;
  readonly url: string;
  /** cycles started, and the step's limit */
  readonly cycle: number;
  readonly of: number;
  readonly running: boolean;
  readonly text: string;
}


export interface ProjectView {
  readonly id: string;
  readonly name: string;
  readonly folders: readonly { readonly name: string; readonly path: string }[];
  readonly primaryFolder: string;
  readonly defaultWorkflow: string;
  /** merge the runs' pull requests once green and approved (docs/shipping.md); null: off, the default */
  readonly autoMerge: { readonly method: 'squash' | 'merge' | 'rebase' } | null;
  /** what the project's runs may spend per local day, in US dollars (docs/usage.md) */
  readonly dailyBudgetUsd?: number;
  /** the project's preview command (docs/preview.md); without it .svc/preview.json in the primary folder is read */
  readonly preview?: PreviewCommand;
  /** svc's sandbox for the project's runs (docs/sandbox.md); absent: preferred */
  readonly sandbox?: SandboxMode;
  /** hosts the project's sandboxed steps may reach besides their model API; `full` adds egressAllowFull ('*': anything) */
  readonly egressAllow?: readonly string[];
  readonly egressAllowFull?: readonly string[];
  /** where its agent steps run (docs/workers.md): absent or 'here', this machine; else a worker's id */
  readonly runOn?: string;
}

/** required: a run does not start without the sandbox; preferred: unsandboxed (and marked) where it cannot start; off: never */
export type SandboxMode = 'required' | 'preferred' | 'off';

export interface StartRunInput {
  readonly project: string;
  readonly goal: string;
  readonly workflow?: string;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly title?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly start?: boolean;
  readonly reason?: string;
  /** the goal on several agents at once: one sibling run per item, grouped (not with harness/model) */
  readonly attempts?: readonly AttemptAgent[];
  /** the run pauses before its next step once its known spend reaches this many US dollars */
  readonly budgetUsd?: number;
}

export interface AttemptAgent {
  readonly harness: HarnessName;
  readonly model?: string;
}

/** a run started as one of several attempts on the goal */
export interface StartedAttempt extends AttemptAgent {
  readonly runId: string;
}

export interface ControlInput {
  readonly position: string;
  readonly action: Action;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly node?: string;
  readonly reason?: string;
  /** with Resume: the run's new budget (a run its budget paused goes on until this one) */
  readonly budgetUsd?: number;
}

export interface Page<K extends string, T, C> {
  readonly items: readonly T[];
  readonly key: K;
  readonly before: C | null;
}

export type WaitChange = 'Standing' | 'Question' | 'Ended' | 'AlreadyEnded' | 'Nothing';

export interface WorkflowListItem {
  readonly name: string;
  readonly description: string;
  readonly standing: 'default' | 'alternative';
  readonly origin: Origin;
  readonly inputs: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
}


/** "waiting: claude limited until 14:05": the harness and when its window ends (null: not known) */
export interface QuotaWaitingOn {
  readonly harness: HarnessName;
  readonly until: string | null;
  /** the CLI's own words when the run's step hit the limit (absent for a queued run held for another run's hit) */
  readonly evidence?: string;
}
