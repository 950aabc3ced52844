import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../scripts/import-graph.js';

// Which fields of the run's decide state (projections/run-decide-state.ts) a decide in commands/ or
// a part of lib/engine reads, with TypeScript's own checker, so a read through any name (`s.x`,
// `run.x`, a destructuring) counts and a comment or a string does not. No @types are loaded (the
// reads are of the spine's own types); the standard library is, so a callback's parameter is typed.
// spec/layout.test.ts holds the decide state to it, in the one process that loads TypeScript.

const DECIDE_STATE = join(ROOT, 'projections', 'run-decide-state.ts');
const readers = (f: string): boolean => /^(commands|lib\/engine)\//.test(f.slice(ROOT.length + 1));

export const fieldsRead = (): { fields: string[]; read: Set<string> } => {
  const roots = ts.sys.readDirectory(join(ROOT, 'commands'), ['.ts']).concat(ts.sys.readDirectory(join(ROOT, 'lib', 'engine'), ['.ts']));
  const program = ts.createProgram([...roots, DECIDE_STATE], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(DECIDE_STATE)!;
  const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'RunDecideState')!;
  const props = checker.getPropertiesOfType(checker.getTypeAtLocation(decl.name));
  const owner = new Map(props.map((p) => [p.declarations?.[0], p.name]));
  const read = new Set<string>();
  const note = (sym: ts.Symbol | undefined) => {
    const name = sym && owner.get(sym.declarations?.[0]);
    if (name) read.add(name);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n)) note(checker.getSymbolAtLocation(n.name));
    else if (ts.isBindingElement(n) && ts.isObjectBindingPattern(n.parent)) {
      const key = n.propertyName ?? n.name;
      if (ts.isIdentifier(key)) note(checker.getTypeAtLocation(n.parent).getProperty(key.text));
    }
    ts.forEachChild(n, visit);
  };
  for (const f of program.getSourceFiles()) if (readers(f.fileName)) visit(f);
  return { fields: props.map((p) => p.name), read };
};
