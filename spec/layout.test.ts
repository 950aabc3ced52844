import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './helpers/env.js';

// Arrows point down: journal/, projections/ and commands/ (the spine) take nothing from lib/ at
// run time but the model modules below, so the spine can be read, tested and reused without the
// service. Type-only imports are free: they vanish when compiled. A model module must stay pure
// in turn: nothing it pulls in at run time may do I/O (no node: module, no package but io-ts
// and fp-ts), or the spine would carry it in through the back door.

const SPINE = ['journal', 'projections', 'commands'];

const MODEL_MODULES: Record<string, string> = {
  'lib/workflows/model.ts': 'the workflow graph: a run is folded over it (findNode, nextNodeId) and RunCreated carries one',
  'lib/supervisors/model.ts': 'a supervisor\'s settings, tiers and wake kinds, and their defaults, which its fold starts from',
  'lib/settings/model.ts': 'the settings, their defaults and tool groups, which the settings fold starts from',
  'lib/settings/codec.ts': 'a SettingChanged event holds the change the door decoded: the journal reads it with the same codec, not a second one that could drift',
  'lib/service-api.ts': 'the vocabulary the decides speak (ACTIONS, Actor, Standing)',
  'lib/inputs/quoted.ts': 'a refusal quotes what it refused as a short prefix, in the same words at every door (pure string work)',
  'lib/harness/setup.ts': 'how each agent CLI is installed and logged in: the start rule\'s refusal says it in the same words as every door',
};

const PURE_PACKAGES = /^(io-ts|fp-ts)(\/|$)/;

interface Import { readonly from: string; readonly spec: string; readonly typeOnly: boolean }

const typeOnly = (d: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
  if (ts.isExportDeclaration(d)) return d.isTypeOnly || (!!d.exportClause && ts.isNamedExports(d.exportClause) && d.exportClause.elements.every((e) => e.isTypeOnly));
  const c = d.importClause;
  if (!c) return false; // `import 'x'` runs x
  if (c.isTypeOnly) return true;
  if (c.name) return false;
  const b = c.namedBindings;
  return !!b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
};

const importsOf = (file: string): Import[] => {
  const src = ts.createSourceFile(file, readFileSync(join(repoRoot, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: Import[] = [];
  for (const s of src.statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      out.push({ from: file, spec: s.moduleSpecifier.text, typeOnly: typeOnly(s) });
    }
  }
  return out;
};

/** the repository path an import names (.js → .ts), or the bare specifier of a package */
const target = (i: Import): string =>
  i.spec.startsWith('.') ? relative(repoRoot, resolve(repoRoot, dirname(i.from), i.spec)).replace(/\.js$/, '.ts') : i.spec;

const tsFiles = (dir: string): string[] =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);

test('journal/, projections/ and commands/ take from lib/ at run time only its model modules', (t) => {
  const files = SPINE.flatMap(tsFiles);
  t.true(files.length > 40);
  const wrong = files.flatMap(importsOf).filter((i) => !i.typeOnly && target(i).startsWith('lib/') && !(target(i) in MODEL_MODULES));
  t.deepEqual(wrong.map((i) => `${i.from} imports ${i.spec}`), []);
});

test('the model modules pull in no I/O at run time, however deep', (t) => {
  const seen = new Set<string>();
  const impure: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of importsOf(file).filter((x) => !x.typeOnly)) {
      const to = target(i);
      if (to.endsWith('.ts')) visit(to);
      else if (!PURE_PACKAGES.test(to)) impure.push(`${file} imports ${i.spec}`);
    }
  };
  Object.keys(MODEL_MODULES).forEach(visit);
  t.deepEqual(impure, []);
});

test('the check sees a runtime import, and lets a type-only one pass', (t) => {
  const probe = (text: string) => {
    const src = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
    return src.statements.filter(ts.isImportDeclaration).map(typeOnly);
  };
  t.deepEqual(probe("import { a } from '../lib/x.js';\nimport type { B } from '../lib/x.js';\nimport { type C, type D } from '../lib/x.js';\nimport { type E, f } from '../lib/x.js';\nimport '../lib/x.js';\nimport * as g from '../lib/x.js';"),
    [false, true, true, false, false, false]);
});
