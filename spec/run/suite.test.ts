import '../helpers/env.js';
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot, tempDir } from '../helpers/env.js';
import { runtimeFixtures } from './suite.js';

// The fixtures a server imports by a path it is given are bundled for `npm test` because a spec
// names them through fixtureModule: the runner reads the calls, so there is no list to forget.

const tree = (files: Record<string, string>): string => {
  const root = tempDir('svc-fixtures-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
};

test('the fixtures named through fixtureModule are found, each once, in spec files and helpers alike', (t) => {
  const root = tree({
    'spec/a/a.test.ts': "const P = fixtureModule('probe', 'p.ts');\nconst Q = fixtureModule( 'harness' , 'h.ts' );\n",
    'spec/helpers/x.ts': "env.M = fixtureModule('probe', 'p.ts');\n",
    'spec/run/words.ts': '// fixtureModule( is only a word here\n',
    'spec/fixtures/probe/p.ts': '', 'spec/fixtures/harness/h.ts': '',
  });
  t.deepEqual(runtimeFixtures(root), ['spec/fixtures/harness/h.ts', 'spec/fixtures/probe/p.ts']);
});

test('a call whose parts are not plain strings, or a fixture that is not there, stops the run with the file named', (t) => {
  const variable = tree({ 'spec/a.test.ts': "const P = fixtureModule('probe', name);\n" });
  t.throws(() => runtimeFixtures(variable), { message: /spec\/a\.test\.ts: a call of fixtureModule whose parts are not plain strings/ });
  const missing = tree({ 'spec/a.test.ts': "const P = fixtureModule('probe', 'gone.ts');\n" });
  t.throws(() => runtimeFixtures(missing), { message: /do not exist: spec\/fixtures\/probe\/gone\.ts/ });
});

test('in this repository: the scripted harness and the crash probe', (t) => {
  t.deepEqual(runtimeFixtures(repoRoot), ['spec/fixtures/fork-probe/probe.ts', 'spec/fixtures/harness/scripted.ts']);
});
