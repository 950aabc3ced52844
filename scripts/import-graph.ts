import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The import graph of the service's own code, read with TypeScript's own module resolver: every
// import and export declaration (type-only included), every `import('…')` type and every dynamic
// import of a literal path. spec/layout.test.ts holds it to LAYERS; `npx tsx scripts/import-graph.ts`
// prints what it finds (docs/layers.md).

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['domain', 'journal', 'projections', 'commands', 'lib'];

/**
 * The layers, bottom first. An import may point at its own unit, or at a unit of its own layer or
 * one below; never above. A unit is a top-level folder, a folder of lib/, or a file straight in lib/.
 * Units of one layer may import each other only where no circle of units forms.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['domain'],
  ['journal'],
  ['projections'],
  ['commands'],
  ['lib/ids.ts', 'lib/paths.ts', 'lib/private-file.ts', 'lib/package-root.ts', 'lib/on-path.ts', 'lib/untrusted.ts', 'lib/clock.ts'],
  ['lib/workflows', 'lib/harness', 'lib/sandbox', 'lib/git', 'lib/auth', 'lib/skills', 'lib/release', 'lib/personas', 'lib/inputs', 'lib/settings', 'lib/usage', 'lib/codehost', 'lib/workers'],
  ['lib/state'],
  ['lib/read-models'],
  ['lib/service'],
  ['lib/engine', 'lib/supervisors', 'lib/triggers', 'lib/notify', 'lib/push', 'lib/preview'],
  ['lib/root'],
  ['lib/mcp', 'lib/http', 'lib/app', 'lib/cli', 'lib/web'],
];

export interface Edge { readonly from: string; readonly to: string; readonly typeOnly: boolean }

const sourceFiles = (dir: string): string[] => {
  let entries;
  try { entries = readdirSync(join(ROOT, dir), { withFileTypes: true }); } catch { return []; }
  return entries.flatMap((e) => e.isDirectory() ? sourceFiles(join(dir, e.name))
    : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []);
};

const declarationTypeOnly = (d: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
  if (ts.isExportDeclaration(d)) return d.isTypeOnly;
  const c = d.importClause;
  return !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings)
    && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
};

const specifiersOf = (file: string): { spec: string; typeOnly: boolean }[] => {
  const src = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: { spec: string; typeOnly: boolean }[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push({ spec: n.moduleSpecifier.text, typeOnly: declarationTypeOnly(n) });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push({ spec: n.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) {
      out.push({ spec: n.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
};

const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, jsx: ts.JsxEmit.ReactJSX, allowJs: true };

/** every file of the service's own code, and the imports between them (packages and node: left out) */
export const importGraph = (): { files: readonly string[]; edges: readonly Edge[] } => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);
  const known = new Set(files);
  const host = ts.createCompilerHost(OPTIONS);
  // one cache for every file's lookups: a folder's package.json and its files are read once
  const cache = ts.createModuleResolutionCache(ROOT, (f) => f, OPTIONS);
  const edges = files.flatMap((from) => specifiersOf(from).flatMap(({ spec, typeOnly }) => {
    const r = ts.resolveModuleName(spec, join(ROOT, from), OPTIONS, host, cache).resolvedModule;
    const to = r && !r.isExternalLibraryImport ? relative(ROOT, r.resolvedFileName) : undefined;
    return to && known.has(to) ? [{ from, to, typeOnly }] : [];
  }));
  return { files, edges };
};

/** the unit a file belongs to: a top-level folder, a folder of lib/, or a file straight in lib/ */
export const unitOf = (file: string): string => {
  const parts = file.split('/');
  if (parts[0] !== 'lib') return parts[0]!;
  return parts.length === 2 ? file : `lib/${parts[1]}`;
};

export const layerOf = (unit: string): number => LAYERS.findIndex((l) => l.includes(unit));

/** strongly connected groups of more than one node (Tarjan), or a node that imports itself */
export const circlesOf = (nodes: readonly string[], pairs: readonly (readonly [string, string])[]): string[][] => {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const [a, b] of pairs) next.get(a)?.push(b);
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const out: string[][] = [];
  let i = 0;
  const connect = (v: string): void => {
    index.set(v, i); low.set(v, i); i += 1; stack.push(v); on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) { on.delete(w); group.push(w); if (w === v) break; }
    if (group.length > 1 || (next.get(v) ?? []).includes(v)) out.push(group.sort());
  };
  for (const n of nodes) if (!index.has(n)) connect(n);
  return out;
};

export interface Findings {
  readonly files: number;
  readonly imports: number;
  /** files that import each other in a loop, type-only imports included */
  readonly fileCircles: readonly string[][];
  /** units that import each other in a loop */
  readonly unitCircles: readonly string[][];
  /** imports that point at a higher layer */
  readonly upward: readonly string[];
  /** units LAYERS does not place */
  readonly unplaced: readonly string[];
}

export const findings = (): Findings => {
  const { files, edges } = importGraph();
  const fileCircles = circlesOf(files, edges.map((e) => [e.from, e.to] as const));
  const units = [...new Set(files.map(unitOf))].sort();
  const crossing = edges.filter((e) => unitOf(e.from) !== unitOf(e.to));
  const unitCircles = circlesOf(units, crossing.map((e) => [unitOf(e.from), unitOf(e.to)] as const));
  const unplaced = units.filter((u) => layerOf(u) < 0);
  const upward = crossing.filter((e) => layerOf(unitOf(e.to)) > layerOf(unitOf(e.from)))
    .map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type-only)' : ''}`);
  return { files: files.length, imports: edges.length, fileCircles, unitCircles, upward, unplaced };
};

const report = (f: Findings): string => [
  `${f.files} files, ${f.imports} imports between them`,
  `${f.fileCircles.length} file circles`, ...f.fileCircles.map((c) => `  circle: ${c.join(' , ')}`),
  `${f.unitCircles.length} folder circles`, ...f.unitCircles.map((c) => `  circle: ${c.join(' , ')}`),
  `${f.upward.length} upward imports`, ...f.upward.map((u) => `  up: ${u}`),
  `${f.unplaced.length} folders with no layer`, ...f.unplaced.map((u) => `  unplaced: ${u}`),
].join('\n');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const f = findings();
  console.log(report(f));
  process.exit(f.fileCircles.length + f.unitCircles.length + f.upward.length + f.unplaced.length > 0 ? 1 : 0);
}
