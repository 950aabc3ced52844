import type { NodeKind } from '../../domain/workflow.js';

// Which attributes mean something where. Graphviz drawing attributes are allowed everywhere (a
// workflow is also a diagram people render); anything else unknown earns a warning, because a
// misspelt `promt` would otherwise be silently ignored.

export const WORKFLOW_GRAPH_ATTRS = ['description', 'inputs', 'defaults', 'harness', 'model', 'persona', 'tools', 'budgetUsd', 'fallbackHarnesses'] as const;

export const NODE_ATTRS_BY_KIND: Readonly<Record<NodeKind, readonly string[]>> = {
  start: [],
  exit: [],
  agent: ['prompt', 'persona', 'harness', 'model', 'tools'],
  // a gate's prompt is what the person deciding there reads (not sent to any agent)
  gate: ['prompt'],
  wait: ['duration'],
  command: ['command'],
  // starts the run's preview (docs/preview.md) and waits until its port answers
  preview: [],
  // watch, cycles, resolveThreads: the pull request loop (lib/workflows/deliver-watch.ts)
  deliver: ['base', 'draft', 'watch', 'cycles', 'resolveThreads'],
};

export const EDGE_ATTRS = ['condition'] as const;

const COMMON_DRAWING = [
  'label', 'xlabel', 'style', 'color', 'fillcolor', 'fontcolor', 'fontname', 'fontsize', 'tooltip', 'comment',
  'URL', 'href', 'target', 'id', 'class', 'penwidth', 'margin',
];

export const GRAPH_DRAWING = new Set([
  ...COMMON_DRAWING, 'rankdir', 'ranksep', 'nodesep', 'splines', 'bgcolor', 'labelloc', 'labeljust', 'compound',
  'concentrate', 'newrank', 'size', 'ratio', 'pad', 'dpi', 'layout', 'ordering', 'center', 'rank',
]);

export const NODE_DRAWING = new Set([
  ...COMMON_DRAWING, 'shape', 'width', 'height', 'fixedsize', 'peripheries', 'group', 'image', 'pos', 'orientation',
  'sides', 'regular', 'distortion', 'skew',
]);

export const EDGE_DRAWING = new Set([
  ...COMMON_DRAWING, 'arrowhead', 'arrowtail', 'arrowsize', 'dir', 'constraint', 'weight', 'minlen', 'headlabel',
  'taillabel', 'headport', 'tailport', 'lhead', 'ltail', 'labelfloat', 'decorate', 'samehead', 'sametail',
]);

const ALL_NODE_ATTRS = new Set(Object.values(NODE_ATTRS_BY_KIND).flat());

/** a warning for an attribute that does nothing on a node of this kind, or undefined when it is fine */
export const nodeAttrWarning = (kind: NodeKind, key: string): string | undefined => {
  if (key === 'kind' || NODE_DRAWING.has(key) || NODE_ATTRS_BY_KIND[kind].includes(key)) return undefined;
  if (ALL_NODE_ATTRS.has(key)) return `${key} has no effect on a ${kind} node`;
  return `unknown attribute ${key} is ignored`;
};

export const graphAttrWarning = (key: string): string | undefined => {
  if (GRAPH_DRAWING.has(key) || (WORKFLOW_GRAPH_ATTRS as readonly string[]).includes(key)) return undefined;
  return `unknown graph attribute ${key} is ignored`;
};

export const edgeAttrWarning = (key: string): string | undefined => {
  if (EDGE_DRAWING.has(key) || (EDGE_ATTRS as readonly string[]).includes(key)) return undefined;
  return `unknown edge attribute ${key} is ignored`;
};
