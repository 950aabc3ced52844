import type { Origin } from '../../domain/workflow.js';

// What validation says about a workflow. A workflow that does not load is a normal answer (loads
// false, with errors), never a thrown exception: authors read these in the app and over MCP.

export interface Diagnostic {
  /** the node the problem is on; null for the graph as a whole */
  readonly node: string | null;
  /** the attribute the problem is on; null when no single attribute is to blame */
  readonly attribute: string | null;
  readonly message: string;
  /** the 1-based source line the problem is on, where the parser knows it (an unknown attribute) */
  readonly line?: number;
}

export interface ValidationResult {
  readonly workflow: string;
  readonly origin: Origin;
  readonly loads: boolean;
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
}

/** errors and warnings gathered while reading a workflow, in the order they are found */
export interface Findings {
  readonly errors: Diagnostic[];
  readonly warnings: Diagnostic[];
}

export const emptyFindings = (): Findings => ({ errors: [], warnings: [] });

export const diag = (node: string | null, attribute: string | null, message: string, line?: number): Diagnostic =>
  ({ node, attribute, message, ...(line === undefined ? {} : { line }) });

export const addError = (f: Findings, node: string | null, attribute: string | null, message: string): void => {
  f.errors.push(diag(node, attribute, message));
};

export const addWarning = (f: Findings, node: string | null, attribute: string | null, message: string, line?: number): void => {
  f.warnings.push(diag(node, attribute, message, line));
};

// The same mistake found twice (a placeholder written twice in one prompt) is said once.
const distinct = (ds: readonly Diagnostic[]): Diagnostic[] => {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = JSON.stringify([d.node, d.attribute, d.message, d.line]);
    return seen.has(key) ? false : (seen.add(key), true);
  });
};

export const toResult = (workflow: string, origin: Origin, f: Findings): ValidationResult => ({
  workflow,
  origin,
  loads: f.errors.length === 0,
  errors: distinct(f.errors),
  warnings: distinct(f.warnings),
});
