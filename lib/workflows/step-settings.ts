import type { SettingValue, StepSettings } from '../../domain/runs.js';
import type { HarnessName, Persona, StepDefaults, StepNode, ToolAccess, Workflow } from '../../domain/workflow.js';

// What an agent step's turn uses, and where each value came from. Precedence, first that has a
// value wins: run (start_run / ChangeHarness) > node > persona > workflow (graph defaults) >
// settings (Settings > General) > shipped default. Not every level can set everything: a persona
// is chosen by the node or the workflow only; only harness has a service setting.

export const SHIPPED_STEP_DEFAULTS = { harness: 'claude', model: null, persona: null, tools: 'edit' } as const;

export interface StepSettingsInput {
  readonly run: { readonly harness?: HarnessName; readonly model?: string };
  readonly node: Pick<StepNode, 'harness' | 'model' | 'persona' | 'tools'>;
  /** the persona the node or workflow names, once loaded */
  readonly persona?: Pick<Persona, 'harness' | 'model' | 'tools'>;
  readonly workflow: StepDefaults;
  readonly settings: { readonly defaultHarness?: HarnessName };
}

/** the persona a step uses: its own, else the workflow's default */
export const stepPersonaName = (wf: Pick<Workflow, 'stepDefaults'>, node: Pick<StepNode, 'persona'>): string | undefined =>
  node.persona ?? wf.stepDefaults.persona;

type Source = SettingValue<unknown>['source'];

const pick = <T>(candidates: ReadonlyArray<readonly [Source, T | undefined]>, fallback: T): SettingValue<T> => {
  const hit = candidates.find(([, v]) => v !== undefined);
  return hit ? { value: hit[1] as T, source: hit[0] } : { value: fallback, source: 'shipped' };
};

export const resolveStepSettings = (i: StepSettingsInput): StepSettings => {
  const persona = pick<string | null>([['node', i.node.persona], ['workflow', i.workflow.persona]], SHIPPED_STEP_DEFAULTS.persona);
  const below: ReadonlyArray<readonly [Source, HarnessName | undefined]> = [
    ['node', i.node.harness], ['persona', i.persona?.harness], ['workflow', i.workflow.harness], ['settings', i.settings.defaultHarness],
  ];
  const chosen = pick<HarnessName>(below, SHIPPED_STEP_DEFAULTS.harness);
  const harness = pick<HarnessName>([['run', i.run.harness], ...below], SHIPPED_STEP_DEFAULTS.harness);
  const model = pick<string | null>(
    [['run', i.run.model], ['node', i.node.model], ['persona', i.persona?.model], ['workflow', i.workflow.model]],
    SHIPPED_STEP_DEFAULTS.model,
  );
  // A model name belongs to one harness ("opus" means nothing to codex): when the run switches the
  // harness without naming a model, a model chosen for the other harness is dropped.
  const switched = harness.source === 'run' && harness.value !== chosen.value && model.source !== 'run';
  const tools = pick<ToolAccess>([['node', i.node.tools], ['persona', i.persona?.tools], ['workflow', i.workflow.tools]], SHIPPED_STEP_DEFAULTS.tools);
  return { persona, harness, model: switched ? { value: null, source: 'run' } : model, tools };
};

// The kinds of tool a step may use (get_run.currentStepToolClasses), a ladder:
//   read-only → read                           (read files, search)
//   edit      → read, edit                     (and change files in the worktree)
//   full      → read, edit, execute, network   (and run commands, reach the network)
export const TOOL_CLASSES = ['read', 'edit', 'execute', 'network'] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

const CLASSES_BY_ACCESS: Readonly<Record<ToolAccess, readonly ToolClass[]>> = {
  'read-only': ['read'],
  edit: ['read', 'edit'],
  full: ['read', 'edit', 'execute', 'network'],
};

/** tool classes for a tools value; an unknown value gets the least access, never more */
export const toolClasses = (tools: string): readonly ToolClass[] =>
  Object.prototype.hasOwnProperty.call(CLASSES_BY_ACCESS, tools) ? CLASSES_BY_ACCESS[tools as ToolAccess] : CLASSES_BY_ACCESS['read-only'];
