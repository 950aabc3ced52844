import '../helpers/env.js';
import test from 'ava';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, tempDir } from '../helpers/env.js';
import { bundleSpecs } from './bundle.js';

// A bundled spec file runs the same code as its sources: each module bundled in keeps the place it
// was written (paths found from import.meta stay the sources'), and two entries share their modules.

test('bundled modules keep their own import.meta.url and dirname (the words in a string stay); each entry is a file of its own', async (t) => {
  const root = tempDir('svc-bundle-');
  mkdirSync(join(root, 'lib', 'deep'), { recursive: true });
  mkdirSync(join(root, 'spec', 'x'), { recursive: true });
  copyFileSync(join(repoRoot, 'tsconfig.json'), join(root, 'tsconfig.json'));
  writeFileSync(join(root, 'lib', 'deep', 'where.ts'), 'export const where = (): string => import.meta.url;\nexport const dir: string = import.meta.dirname;\n');
  writeFileSync(join(root, 'spec', 'x', 'a.test.ts'), "import { where, dir } from '../../lib/deep/where.js';\nexport const seen = { lib: where(), dir, own: import.meta.url, words: 'import.meta.url' };\n");
  writeFileSync(join(root, 'spec', 'x', 'b.test.ts'), "import { where } from '../../lib/deep/where.js';\nexport const seen = where();\n");
  const out = join(root, 'out');
  await bundleSpecs(root, ['spec/x/a.test.ts', 'spec/x/b.test.ts'], out);
  const a = (await import(pathToFileURL(join(out, 'spec', 'x', 'a.test.mjs')).href)) as { seen: Record<string, string> };
  t.deepEqual(a.seen, {
    lib: pathToFileURL(join(root, 'lib', 'deep', 'where.ts')).href,
    dir: join(root, 'lib', 'deep'),
    own: pathToFileURL(join(root, 'spec', 'x', 'a.test.ts')).href,
    words: 'import.meta.url',
  });
  const b = (await import(pathToFileURL(join(out, 'spec', 'x', 'b.test.mjs')).href)) as { seen: string };
  t.is(b.seen, a.seen['lib']);
});
