import { createHash } from 'node:crypto';
import { edgeAttrWarning } from './attributes.js';
import { addError, addWarning, emptyFindings, type Findings } from './diagnostics.js';
import { parseDot, type DotEdge, type DotGraph } from './dot-graph.js';
import { parseCondition } from './dot-values.js';
import type { Origin, Route, StepNode, Workflow } from '../../domain/workflow.js';
import { readGraphSettings } from './parse-graph-attrs.js';
import { parseNode } from './parse-node.js';
import { fileRef, inlineSource, type PromptFileBase } from './prompt-files.js';

// DOT source → Workflow, with what is wrong on each graph, node and edge attribute. Structure
// (start, exits, reachability) is judged afterwards in graph-checks.ts on the draft built here.

export interface ParseOptions {
  readonly name: string;
  readonly origin: Origin;
  /** where @prompt files are read from; absent for custom workflows, which keep prompts inline */
  readonly files?: PromptFileBase;
}

export interface WorkflowDraft {
  /** built even when there are errors: nodes without a usable kind are left out */
  readonly workflow: Workflow;
  /** every node a node statement declares, usable kind or not */
  readonly declared: ReadonlySet<string>;
  /** routes whose condition could not be read: they still connect nodes */
  readonly unreadRoutes: readonly Route[];
}

export interface ParseOutcome {
  /** undefined when the text is not a DOT digraph at all */
  readonly draft: WorkflowDraft | undefined;
  readonly findings: Findings;
  /** real paths of the prompt files read */
  readonly files: readonly string[];
}

export const contentVersion = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const parseWorkflow = (source: string, opts: ParseOptions): ParseOutcome => {
  const f = emptyFindings();
  const dot = parseDot(source);
  if (!dot.ok) {
    addError(f, null, null, `not a DOT file: ${dot.message}`);
    return { draft: undefined, findings: f, files: [] };
  }
  if (!dot.graph.directed) {
    addError(f, null, null, 'a workflow is a digraph (directed graph with ->), not an undirected graph');
    return { draft: undefined, findings: f, files: [] };
  }
  return build(source, dot.graph, opts, f);
};

const build = (source: string, g: DotGraph, opts: ParseOptions, f: Findings): ParseOutcome => {
  const settings = readGraphSettings(g.attrs, g.lines, f);
  const nodes: StepNode[] = [];
  const fileTexts = new Map<string, { text: string; path: string }>();
  for (const n of g.nodes.values()) {
    if (!n.declared) continue;
    const parsed = parseNode(n, opts.files, f);
    if (parsed.node) nodes.push(parsed.node);
    parsed.files.forEach((v, k) => fileTexts.set(k, v));
  }
  const { routes, unread } = readRoutes(g.edges, f);
  const inlined = inlineSource(source, g.spans.flatMap((span) => {
    const ref = span.key === 'prompt' ? fileRef(span.value) : undefined;
    const file = ref === undefined ? undefined : fileTexts.get(ref);
    return file ? [{ span, text: file.text }] : [];
  }));
  const workflow: Workflow = {
    name: opts.name, origin: opts.origin, version: contentVersion(inlined), ...settings, nodes, routes, source: inlined,
  };
  const declared = new Set([...g.nodes.values()].filter((n) => n.declared).map((n) => n.id));
  return { draft: { workflow, declared, unreadRoutes: unread }, findings: f, files: [...new Set([...fileTexts.values()].map((x) => x.path))] };
};

const readRoutes = (edges: readonly DotEdge[], f: Findings): { routes: Route[]; unread: Route[] } => {
  const routes: Route[] = [];
  const unread: Route[] = [];
  for (const e of edges) {
    for (const key of Object.keys(e.attrs)) {
      const w = edgeAttrWarning(key);
      if (w) addWarning(f, e.from, key, `route ${e.from} -> ${e.to}: ${w}`, e.lines[key]);
    }
    const text = e.attrs.condition;
    const cond = text === undefined || text.trim() === '' ? undefined : parseCondition(text);
    if (cond && !cond.ok) addError(f, e.from, 'condition', `route ${e.from} -> ${e.to}: ${cond.message}`);
    if (cond && !cond.ok) unread.push({ from: e.from, to: e.to });
    else routes.push({ from: e.from, to: e.to, ...(cond ? { condition: cond.value } : {}) });
  }
  return { routes, unread };
};
