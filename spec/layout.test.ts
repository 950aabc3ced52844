import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { circlesOf, findings, LAYERS, layerOf, ROOT, unitOf } from '../scripts/import-graph.js';

// The layers hold by this test, not by good intentions (docs/layers.md). Imports run down
// scripts/import-graph.ts's LAYERS, read with TypeScript's own resolver, type-only imports
// included; no file and no folder imports itself back through others. There is no exemption list.

const found = findings();

test('the import graph is read whole', (t) => {
  t.true(found.files > 400);
  t.true(found.imports > 1500);
});

test('no file imports itself back through others, type-only imports included', (t) => {
  t.deepEqual(found.fileCircles, []);
});

test('no folder imports itself back through others', (t) => {
  t.deepEqual(found.unitCircles, []);
});

test('every import runs down the layers', (t) => {
  t.deepEqual(found.upward, []);
});

test('every folder has its place in the layers', (t) => {
  t.deepEqual(found.unplaced, []);
});

// The spine is pure but for the journal's store: a decide or a fold that did I/O could not be
// replayed. Packages it may use: io-ts and fp-ts (pure), and lmdb in journal/ alone.
test('the spine takes no package but io-ts and fp-ts, and only journal/ touches storage', (t) => {
  const spine = ['domain', 'projections', 'commands', 'journal'];
  const wrong: string[] = [];
  for (const dir of spine) {
    for (const file of sourceFilesUnder(dir)) {
      for (const spec of packagesOf(file)) {
        const allowed = /^(io-ts|fp-ts)(\/|$)/.test(spec) || (dir === 'journal' && /^(lmdb|node:fs|node:path)$/.test(spec));
        if (!allowed) wrong.push(`${file} imports ${spec}`);
      }
    }
  }
  t.deepEqual(wrong, []);
});

test('docs/layers.md names the layers in the order the test holds', (t) => {
  const doc = readFileSync(join(ROOT, 'docs', 'layers.md'), 'utf8');
  const positions = LAYERS.flat().map((unit) => ({ unit, at: doc.indexOf(`\`${unit}\``) }));
  t.deepEqual(positions.filter((p) => p.at < 0).map((p) => p.unit), [], 'every unit is named in docs/layers.md');
  const order = LAYERS.map((layer) => Math.min(...layer.map((u) => doc.indexOf(`\`${u}\``))));
  t.deepEqual([...order].sort((a, b) => a - b), order, 'the layers are listed bottom first');
});

// The check itself can fail: a circle and an upward arrow are seen for what they are.
test('the check sees a circle, a self-import and an upward import', (t) => {
  t.deepEqual(circlesOf(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['c', 'a']]), [['a', 'b', 'c']]);
  t.deepEqual(circlesOf(['a'], [['a', 'a']]), [['a']]);
  t.deepEqual(circlesOf(['a', 'b'], [['a', 'b']]), []);
  t.true(layerOf(unitOf('journal/journal.ts')) < layerOf(unitOf('lib/engine/engine.ts')));
  t.true(layerOf(unitOf('domain/runs.ts')) < layerOf(unitOf('commands/control.ts')));
  t.is(unitOf('lib/paths.ts'), 'lib/paths.ts');
  t.is(unitOf('lib/web/run/review.tsx'), 'lib/web');
  t.is(layerOf('lib/no-such-folder'), -1);
});

const sourceFilesUnder = (dir: string): string[] =>
  ts.sys.readDirectory(join(ROOT, dir), ['.ts', '.tsx']).map((f) => f.slice(ROOT.length + 1));

const packagesOf = (file: string): string[] => {
  const src = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  return src.statements.flatMap((s) => (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && !s.moduleSpecifier.text.startsWith('.') ? [s.moduleSpecifier.text] : []);
};
