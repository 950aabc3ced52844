import type { Journal } from '../../journal/journal.js';
import type { Checkout, KeptWork } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import type { HarnessWindow } from '../../projections/harness-windows.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import type { PullRequestState } from '../codehost/pr-state.js';
import type { ProjectView, PullRequestRef, StepSettings } from '../../domain/runs.js';
import type { Settings } from '../../domain/settings.js';
import type { LogStore } from '../state/log-store.js';
import type { RunStreams } from '../state/run-stream.js';
import type { HarnessName, Persona, StepNode } from '../../domain/workflow.js';
import type { SandboxChoice } from '../sandbox/sandbox.js';
import type { SandboxedTool } from '../sandbox/home.js';

// What the engine needs from the rest of the service: handed in, so each piece is the real one in
// production and in tests alike, and the engine never reaches for a global.

export interface PromptVars {
  readonly goal: string;
  readonly inputs: Readonly<Record<string, string>>;
  readonly previous?: { readonly node: string; readonly outcome: string; readonly summary: string };
  readonly preview?: { readonly url: string };
}

export interface EngineDeps {
  readonly journal: Journal;
  readonly runs: RunStreams;
  readonly logs: LogStore;
  project(id: string): ProjectView | undefined;
  settings(): Settings;
  harness(name: HarnessName): HarnessAdapter | undefined;
  /** a turn could not start this harness's CLI: check it again, so starts and the app know (optional: tests' engines) */
  recheckHarness?(name: HarnessName): void;
  /**
   * the run's project runs on a worker (docs/workers.md): the adapter that dispatches its turns
   * there, and the worker's id; undefined: the step runs here, as always
   */
  remote?(run: RunState, harness: HarnessName): { readonly adapter: HarnessAdapter; readonly workerId: string } | undefined;
  /**
   * a step of this run the journal has dispatched to a worker and not ended (the service was
   * killed while it ran there): the adapter that takes its latest turn up where it runs; or, with
   * `ended`, one whose turn is the result the hub recorded before it was killed (the run had not
   * recorded the step's end yet); `turn`: which of the step's turns it is (its usage is that
   * turn's); undefined: none
   */
  takeUp?(run: RunState, harness: HarnessName, stepId: string): { readonly adapter: HarnessAdapter; readonly workerId: string; readonly turn: number; readonly ended?: true } | undefined;
  stepSettings(run: RunState, node: StepNode): StepSettings;
  persona(run: RunState, name: string): Persona | undefined;
  renderPrompt(template: string, vars: PromptVars): string;
  readonly worktrees: {
    create(runId: string, folders: ProjectView['folders']): Promise<Checkout[]>;
    remove(runId: string, checkouts: readonly Checkout[]): Promise<void>;
    /** each worktree's uncommitted work as a snapshot under a ref archiving keeps (lib/git/keep-work.ts) */
    keep(runId: string, checkouts: readonly Checkout[]): Promise<KeptWork[]>;
    /** the removed worktrees made again, their kept work restored (idempotent) */
    restore(runId: string, removed: readonly Checkout[], kept: readonly KeptWork[]): Promise<Checkout[]>;
    /** a fork's: its branch at each snapshot's parent, the snapshot's state restored (idempotent) */
    createFork(runId: string, folders: ProjectView['folders'], snapshots: readonly { folder: string; commit: string; base: string }[]): Promise<Checkout[]>;
  };
  readonly snapshots: {
    /** the worktree's state as a commit under ref (lib/git/snapshot.ts) */
    take(directory: string, ref: string): Promise<string>;
    /** deletes the run's snapshot refs in these repositories */
    drop(runId: string, repos: readonly string[]): Promise<void>;
    /** the run's branch and refs fetched from its own repositories into the user's (lib/git/run-clones.ts) */
    publish?(runId: string, checkouts: readonly Checkout[]): Promise<void>;
  };
  /** a test fixture's crash point (SVC_FORK_PROBE_MODULE: forks, archives, unarchives); nothing in production */
  probe?(point: string): void;
  deliver(run: RunState, node: StepNode): Promise<PullRequestRef>;
  /** svc's sandbox for a step that runs `tool` in the run's folder, or why there is none (lib/service/sandbox.ts) */
  sandbox(run: RunState, tool: SandboxedTool): SandboxChoice;
  /** the run's preview (lib/preview): started for a `kind=preview` step, read for {{preview.url}} (optional: tests' engines) */
  readonly preview?: PreviewPort;
  /** the run's own tool server: its URL, and a fresh token valid while the step runs */
  runTools(runId: string, stepId: string): { url: string; token: string; revoke(): void };
  /** each read of a watched pull request, with the run after what it decided (P3's auto-merge hooks in here) */
  pullRequestRead?(run: RunState, state: PullRequestState): void;
  newId(prefix: string): string;
  now(): Date;
  /** resolves at `when` by the engine's clock (tests move it by hand), or early when `signal` aborts */
  sleepUntil(when: Date, signal: AbortSignal): Promise<void>;
  /** the harnesses' quota windows (docs/usage.md) and whether a harness is ready (installed, logged in) */
  readonly windows: HarnessWindowsPort;
  /** what a project's runs have spent on the local day of `now` (known costs; lib/usage/project-spend.ts) */
  spentToday(projectId: string): number;
}

export interface PreviewPort {
  /** starts the run's preview as a step's (stopped when the run ends) and resolves once its port answers */
  start(runId: string): Promise<{ readonly ok: true; readonly url: string } | { readonly ok: false; readonly detail: string }>;
  /** its URL through svc while it runs, else null */
  url(runId: string): string | null;
}

export interface HarnessWindowsPort {
  /** the harness's window if it is limited now (by the engine's clock), else null */
  limit(harness: HarnessName): HarnessWindow | null;
  ready(harness: HarnessName): boolean;
  /** record that the harness is out of quota until `until` (once per window) */
  limited(harness: HarnessName, until: string | null, evidence: string, runId: string): void;
  /** a turn on the harness went through: its window is over */
  seenBack(harness: HarnessName, runId: string): void;
}
