import type { StepSettings } from '../../domain/runs.js';
import type { HarnessName, NodeKind, Persona, Workflow } from '../../domain/workflow.js';
import { resolveStepSettings, stepPersonaName, toolClasses } from './step-settings.js';

// The `steps` of read_workflow: each node with the settings its turn would use before any
// run-level choice (no run harness or model yet), and where each comes from.

export interface StepView {
  readonly id: string;
  readonly kind: NodeKind;
  readonly label: string | null;
  /** agent steps only: what the turn uses before any run-level choice, and where it comes from */
  readonly settings: StepSettings | null;
  readonly toolClasses: readonly string[];
}

export const stepViews = (wf: Workflow, persona: (name: string) => Persona | undefined, defaultHarness: HarnessName | undefined): StepView[] =>
  wf.nodes.map((node) => {
    const label = node.label ?? null;
    if (node.kind !== 'agent') return { id: node.id, kind: node.kind, label, settings: null, toolClasses: [] };
    const name = stepPersonaName(wf, node);
    const found = name === undefined ? undefined : persona(name);
    const settings = resolveStepSettings({
      run: {}, node, ...(found ? { persona: found } : {}), workflow: wf.stepDefaults, settings: { defaultHarness },
    });
    return { id: node.id, kind: node.kind, label, settings, toolClasses: toolClasses(settings.tools.value) };
  });
