// The workflow model: what the engine walks. The DOT language (lib/workflows/dot-*.ts) is one way
// to produce it; the engine knows nothing of DOT. A run stores the Workflow it started with inside
// its RunCreated event, so a run keeps its version however the file changes later.

export const HARNESSES = ['claude', 'codex', 'opencode'] as const;
export type HarnessName = (typeof HARNESSES)[number];

export const NODE_KINDS = ['start', 'exit', 'agent', 'gate', 'wait', 'command', 'deliver', 'preview'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

// Tool access of an agent step, from least to most: what the harness is allowed to do.
export const TOOL_ACCESS = ['read-only', 'edit', 'full'] as const;
export type ToolAccess = (typeof TOOL_ACCESS)[number];

export const ORIGINS = ['custom', 'project', 'home', 'shipped'] as const;
export type Origin = (typeof ORIGINS)[number];

export type StepOutcome = 'success' | 'failure';

export interface StepNode {
  readonly id: string;
  readonly kind: NodeKind;
  readonly label?: string;
  /** agent: prompt with @file references already inlined; may hold {{goal}}, {{inputs.NAME}}, {{previous.outcome}}, {{previous.summary}} */
  readonly prompt?: string;
  readonly persona?: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly tools?: ToolAccess;
  /** command: a shell command run in the worktree; exit code 0 is success */
  readonly command?: string;
  /** wait: how long the run waits */
  readonly durationMs?: number;
  /** every attribute as written, for display */
  readonly attrs: Readonly<Record<string, string>>;
}

export interface Route {
  readonly from: string;
  readonly to: string;
  /** no condition: taken for any outcome (after conditioned routes that match) */
  readonly condition?: StepOutcome;
}

export interface StepDefaults {
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly persona?: string;
  readonly tools?: ToolAccess;
}

/** the graph-level attributes: description, declared inputs with their defaults, what every agent step starts from */
export interface GraphSettings {
  readonly description: string;
  readonly inputs: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
  readonly stepDefaults: StepDefaults;
  /** harnesses a run switches to, in order, when its step's harness is out of quota (graph attribute fallbackHarnesses) */
  readonly fallbackHarnesses?: readonly HarnessName[];
  /** the graph's `budgetUsd`: a run's budget when its start gives none (docs/usage.md) */
  readonly budgetUsd?: number;
}

export interface Workflow extends GraphSettings {
  readonly name: string;
  readonly origin: Origin;
  /** content hash of the source (with @files inlined) */
  readonly version: string;
  readonly nodes: readonly StepNode[];
  readonly routes: readonly Route[];
  readonly source: string;
}

export interface Persona {
  readonly name: string;
  readonly origin: Origin;
  readonly prompt: string;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly tools?: ToolAccess;
}

export const findNode = (wf: Workflow, id: string): StepNode | undefined => wf.nodes.find((n) => n.id === id);

export const startNode = (wf: Workflow): StepNode | undefined => wf.nodes.find((n) => n.kind === 'start');

// The route taken out of `from` for an outcome: a matching condition wins over an unconditioned route.
export const nextNodeId = (wf: Workflow, from: string, outcome: StepOutcome): string | undefined => {
  const out = wf.routes.filter((r) => r.from === from);
  return (out.find((r) => r.condition === outcome) ?? out.find((r) => r.condition === undefined))?.to;
};
