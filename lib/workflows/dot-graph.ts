import { parse, type ClusterStatementASTNode, type AttributeASTNode, type EdgeTargetASTNode, type LiteralASTNode } from 'ts-graphviz/ast';

// A DOT file flattened with Graphviz's own rules, so a workflow means what `dot` would draw:
// `node [...]` / `edge [...]` defaults apply to what is created after them, scoped to their
// subgraph; repeated node statements merge their attributes; `a -> b -> {c d}` is four edges.
// We walk the AST rather than ts-graphviz's model because the model drops merged attributes and
// scoped defaults, and the AST keeps source offsets (needed to inline @prompt files).

/** attribute name -> the 1-based source line that set it, so a diagnostic can point at it */
export type AttrLines = Record<string, number>;

export interface DotNode {
  readonly id: string;
  readonly attrs: Record<string, string>;
  readonly lines: AttrLines;
  /** true when a node statement names it; false when it only appears in edges */
  declared: boolean;
}

export interface DotEdge {
  readonly from: string;
  readonly to: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly lines: Readonly<AttrLines>;
}

/** where an attribute value sits in the source, to rewrite it (inlining @files) */
export interface ValueSpan {
  readonly node: string | null;
  readonly key: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

export interface DotGraph {
  readonly directed: boolean;
  readonly attrs: Readonly<Record<string, string>>;
  readonly lines: Readonly<AttrLines>;
  readonly nodes: ReadonlyMap<string, DotNode>;
  readonly edges: readonly DotEdge[];
  readonly spans: readonly ValueSpan[];
}

export type DotParse = { readonly ok: true; readonly graph: DotGraph } | { readonly ok: false; readonly message: string };

/** attribute values and the lines that set them, kept side by side */
interface Attrs {
  readonly values: Record<string, string>;
  readonly lines: AttrLines;
}

interface Scope {
  readonly node: Attrs;
  readonly edge: Attrs;
}

interface Acc {
  readonly attrs: Attrs;
  readonly nodes: Map<string, DotNode>;
  readonly edges: DotEdge[];
  readonly spans: ValueSpan[];
}

export const parseDot = (source: string): DotParse => {
  let ast;
  try {
    ast = parse(source);
  } catch (e) {
    return { ok: false, message: syntaxMessage(e) };
  }
  const graph = ast.children.find((c) => c.type === 'Graph');
  if (!graph) return { ok: false, message: 'no graph in the file' };
  const acc: Acc = { attrs: noAttrs(), nodes: new Map(), edges: [], spans: [] };
  walk(graph.children, { node: noAttrs(), edge: noAttrs() }, acc, true);
  const { attrs, ...rest } = acc;
  return { ok: true, graph: { directed: graph.directed, ...rest, attrs: attrs.values, lines: attrs.lines } };
};

const syntaxMessage = (e: unknown): string => {
  const cause = (e as { cause?: { location?: { start?: { line: number; column: number } } } }).cause;
  const at = cause?.location?.start;
  const text = e instanceof Error ? e.message : String(e);
  // The commonest slip: an unquoted value with a dash (tools=read-only) is not a DOT identifier.
  const hint = /but "-" found/.test(text) ? ' (a value with - in it must be quoted, e.g. tools="read-only")' : '';
  return (at ? `line ${at.line}, column ${at.column}: ${text}` : text) + hint;
};

const walk = (stmts: readonly ClusterStatementASTNode[], parent: Scope, acc: Acc, root: boolean): void => {
  const scope: Scope = { node: copyAttrs(parent.node), edge: copyAttrs(parent.edge) };
  for (const s of stmts) {
    if (s.type === 'Attribute' && root) setAttr(acc.attrs, s);
    if (s.type === 'AttributeList' && s.kind === 'Graph' && root) attrsOf(s.children).forEach((a) => setAttr(acc.attrs, a));
    if (s.type === 'AttributeList' && s.kind === 'Node') attrsOf(s.children).forEach((a) => setAttr(scope.node, a, acc.spans, null));
    if (s.type === 'AttributeList' && s.kind === 'Edge') attrsOf(s.children).forEach((a) => setAttr(scope.edge, a));
    if (s.type === 'Node') declareNode(s.id.value, attrsOf(s.children), scope, acc);
    if (s.type === 'Edge') addEdges(s.targets, attrsOf(s.children), scope, acc);
    if (s.type === 'Subgraph') walk(s.children, scope, acc, false);
  }
};

const attrsOf = (children: readonly { type: string }[]): AttributeASTNode[] =>
  children.filter((c): c is AttributeASTNode => c.type === 'Attribute');

const noAttrs = (): Attrs => ({ values: {}, lines: {} });
const copyAttrs = (a: Attrs): Attrs => ({ values: { ...a.values }, lines: { ...a.lines } });

const setAttr = (into: Attrs, a: AttributeASTNode, spans?: ValueSpan[], node?: string | null): void => {
  const key = String(a.key.value);
  into.values[key] = a.value.value;
  const line = a.key.location?.start.line;
  if (line !== undefined) into.lines[key] = line;
  if (spans && node !== undefined) spans.push(spanOf(node, key, a.value));
};

const spanOf = (node: string | null, key: string, v: LiteralASTNode): ValueSpan => ({
  node,
  key,
  value: v.value,
  start: v.location?.start.offset ?? -1,
  end: v.location?.end.offset ?? -1,
});

const ensureNode = (id: string, scope: Scope, acc: Acc): DotNode => {
  const found = acc.nodes.get(id);
  if (found) return found;
  const created: DotNode = { id, attrs: { ...scope.node.values }, lines: { ...scope.node.lines }, declared: false };
  acc.nodes.set(id, created);
  return created;
};

const declareNode = (id: string, attrs: AttributeASTNode[], scope: Scope, acc: Acc): void => {
  const n = ensureNode(id, scope, acc);
  n.declared = true;
  const into = { values: n.attrs, lines: n.lines };
  attrs.forEach((a) => setAttr(into, a, acc.spans, id));
};

const idsOf = (t: EdgeTargetASTNode): string[] =>
  t.type === 'NodeRef' ? [t.id.value] : t.children.map((c) => c.id.value);

const addEdges = (targets: readonly EdgeTargetASTNode[], attrs: AttributeASTNode[], scope: Scope, acc: Acc): void => {
  const own = copyAttrs(scope.edge);
  attrs.forEach((a) => setAttr(own, a));
  const groups = targets.map(idsOf);
  groups.flat().forEach((id) => ensureNode(id, scope, acc));
  for (let i = 0; i + 1 < groups.length; i++) {
    for (const from of groups[i]) for (const to of groups[i + 1]) acc.edges.push({ from, to, attrs: own.values, lines: own.lines });
  }
};
