import { addError, addWarning, toResult, type Findings, type ValidationResult } from './diagnostics.js';
import { checkGraph } from './graph-checks.js';
import type { Workflow } from '../../domain/workflow.js';
import { parseWorkflow, type ParseOptions } from './parse.js';
import { placeholdersIn } from './template.js';

// Everything an author can get wrong, in one answer: syntax and attributes (parse.ts), shape
// (graph-checks.ts), personas and prompt placeholders (here). The Workflow comes back only when
// it loads, so nothing downstream ever walks a broken graph.

export interface ValidateOptions extends ParseOptions {
  /** personas the workflow may name: null when usable, or why its file does not load */
  readonly personas: ReadonlyMap<string, string | null>;
}

export interface Validated {
  readonly result: ValidationResult;
  readonly workflow: Workflow | undefined;
  /** the workflow as far as it could be built, errors or not; undefined when the text is not DOT */
  readonly draft: Workflow | undefined;
  /** real paths of the prompt files read */
  readonly files: readonly string[];
}

export const validateWorkflow = (source: string, opts: ValidateOptions): Validated => {
  const parsed = parseWorkflow(source, opts);
  const f = parsed.findings;
  if (parsed.draft) {
    checkGraph(parsed.draft, f);
    checkPersonas(parsed.draft.workflow, opts.personas, f);
    checkPlaceholders(parsed.draft.workflow, f);
  }
  const result = toResult(opts.name, opts.origin, f);
  const draft = parsed.draft?.workflow;
  return { result, workflow: result.loads ? draft : undefined, draft, files: parsed.files };
};

const personaProblem = (name: string, personas: ReadonlyMap<string, string | null>): string | undefined => {
  if (!personas.has(name)) return `unknown persona ${name} (known: ${[...personas.keys()].sort().join(', ') || 'none'})`;
  const problem = personas.get(name);
  return problem ? `persona ${name} does not load: ${problem}` : undefined;
};

const checkPersonas = (wf: Workflow, personas: ReadonlyMap<string, string | null>, f: Findings): void => {
  const fromGraph = wf.stepDefaults.persona;
  const graphProblem = fromGraph === undefined ? undefined : personaProblem(fromGraph, personas);
  if (graphProblem) addError(f, null, 'persona', graphProblem);
  for (const n of wf.nodes) {
    const problem = n.persona === undefined ? undefined : personaProblem(n.persona, personas);
    if (problem) addError(f, n.id, 'persona', problem);
  }
};

const checkPlaceholders = (wf: Workflow, f: Findings): void => {
  const used = new Set<string>();
  for (const n of wf.nodes) {
    for (const ref of placeholdersIn(n.prompt ?? '')) {
      if (ref.kind === 'input') used.add(ref.name);
      if (ref.kind === 'input' && !wf.inputs.includes(ref.name)) {
        addError(f, n.id, 'prompt', `{{inputs.${ref.name}}} uses input ${ref.name}, which the workflow does not declare in inputs`);
      }
      if (ref.kind === 'unknown') addWarning(f, n.id, 'prompt', `{{${ref.text}}} is not a placeholder; it is left as written`);
    }
  }
  for (const name of wf.inputs) {
    if (!used.has(name)) addWarning(f, null, 'inputs', `input ${name} is declared but no prompt uses it`);
  }
};
