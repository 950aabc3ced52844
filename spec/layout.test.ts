import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { circlesOf, findings, importGraph, LAYERS, layerOf, ROOT, unitOf, type Edge } from '../scripts/import-graph.js';
import { fieldsRead } from './helpers/decide-state-reads.js';

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

// A decide reads the run's decide state only (projections/run-decide-state.ts); what only views read
// is folded apart and composed in projections/run-state.ts (docs/layers.md, "Where a run's field
// goes"). The views are the projections run-state.ts imports besides the decide state, so a view
// part added there is held off commands/ too, with no list to keep.
const RUN_STATE = 'projections/run-state.ts';
const runViews = (edges: readonly Edge[]): string[] =>
  [RUN_STATE, ...edges.filter((e) => e.from === RUN_STATE && e.to.startsWith('projections/') && e.to !== 'projections/run-decide-state.ts').map((e) => e.to)];

/** every file the given files import, directly or through others, type-only imports included, each with the path it is reached by */
const reachedFrom = (starts: readonly string[], edges: readonly Edge[]): Map<string, string[]> => {
  const out = new Map<string, string[]>(starts.map((f) => [f, [f]]));
  const queue = [...starts];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const e of edges) {
      if (e.from !== from || out.has(e.to)) continue;
      out.set(e.to, [...out.get(from)!, e.to]);
      queue.push(e.to);
    }
  }
  return out;
};

const viewsReached = (files: readonly string[], edges: readonly Edge[]): string[] => {
  const reached = reachedFrom(files.filter((f) => f.startsWith('commands/')), edges);
  return runViews(edges).flatMap((v) => (reached.has(v) ? [reached.get(v)!.join(' -> ')] : []));
};

test('no decide reaches the run\'s views: commands/ import neither projections/run-state.ts nor a view it composes', (t) => {
  const { files, edges } = importGraph();
  const views = runViews(edges);
  t.true(views.includes('projections/run-board.ts') && views.includes('projections/run-reviews.ts'), 'the views are read off run-state.ts');
  t.true(files.some((f) => f.startsWith('commands/')));
  t.deepEqual(viewsReached(files, edges), []);
});

test('the check sees a decide that reaches a view through another file', (t) => {
  const edges: Edge[] = [
    { from: RUN_STATE, to: 'projections/run-decide-state.ts', typeOnly: false }, { from: RUN_STATE, to: 'projections/run-board.ts', typeOnly: false },
    { from: 'commands/a.ts', to: 'projections/x.ts', typeOnly: true }, { from: 'projections/x.ts', to: 'projections/run-board.ts', typeOnly: true },
    { from: 'commands/b.ts', to: 'projections/run-decide-state.ts', typeOnly: true },
  ];
  t.deepEqual(viewsReached(['commands/a.ts', 'commands/b.ts'], edges), ['commands/a.ts -> projections/x.ts -> projections/run-board.ts']);
});

const sourceFilesUnder = (dir: string): string[] =>
  ts.sys.readDirectory(join(ROOT, dir), ['.ts', '.tsx']).map((f) => f.slice(ROOT.length + 1));

const packagesOf = (file: string): string[] => {
  const src = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  return src.statements.flatMap((s) => (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && !s.moduleSpecifier.text.startsWith('.') ? [s.moduleSpecifier.text] : []);
};

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

const { fields, read } = fieldsRead();

test('every field of the decide state is read by a decide or the engine (or kept for a reason named here)', (t) => {
  t.true(fields.length > 40, 'the decide state is read whole');
  t.deepEqual(fields.filter((f) => !read.has(f) && !(f in KEPT)), []);
});

test('a field kept for a reason is one no decide reads, so the reason is still needed', (t) => {
  t.deepEqual(Object.keys(KEPT).filter((f) => read.has(f)), []);
  t.deepEqual(Object.keys(KEPT).filter((f) => !fields.includes(f)), []);
});
