import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The decide state holds what a decide or the engine reads, and nothing a view alone reads: a field
// no decide in commands/ and no part of lib/engine reads belongs in a view (projections/run-state.ts
// composes them; docs/layers.md, "Where a run's field goes"). Read with TypeScript's own checker, so
// a read through any name (`s.x`, `run.x`, a destructuring) counts and a comment or a string does not.

/** fields kept for the stream or the doors' facts, not read by a decide from the state itself, and why */
const KEPT: Readonly<Record<string, string>> = {
  position: 'the seq of the last event that moved the run: a write handler refuses a stale position (lib/service/run-commands.ts)',
  handedTo: 'the run\'s owner (projections/ownership.ts reads it as an OwnedRun): a supervisor\'s decides refuse a run it does not own',
  startedBySupervisor: "the supervisor whose cap of runs at work the run counts against (lib/state/supervisors.ts): start_run's refusal",
};

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DECIDE_STATE = join(ROOT, 'projections', 'run-decide-state.ts');
const readers = (f: string): boolean => /^(commands|lib\/engine)\//.test(f.slice(ROOT.length + 1));

const fieldsRead = (): { fields: string[]; read: Set<string> } => {
  const roots = ts.sys.readDirectory(join(ROOT, 'commands'), ['.ts']).concat(ts.sys.readDirectory(join(ROOT, 'lib', 'engine'), ['.ts']));
  const program = ts.createProgram([...roots, DECIDE_STATE], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true });
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

const { fields, read } = fieldsRead();

test('every field of the decide state is read by a decide or the engine (or kept for a reason named here)', (t) => {
  t.true(fields.length > 40, 'the decide state is read whole');
  t.deepEqual(fields.filter((f) => !read.has(f) && !(f in KEPT)), []);
});

test('a field kept for a reason is one no decide reads, so the reason is still needed', (t) => {
  t.deepEqual(Object.keys(KEPT).filter((f) => read.has(f)), []);
  t.deepEqual(Object.keys(KEPT).filter((f) => !fields.includes(f)), []);
});
