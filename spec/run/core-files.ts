import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The spine's tests: what `npm run test:core` runs (spec/run/core.ts), and what `npm test` runs that
// way first, leaving them out of its processes (spec/run/main.ts).

const FOLDERS = ['spec/commands', 'spec/projections', 'spec/journal'];

/** paths from the repository root */
// the layout test first: it loads TypeScript and reads every file, the longest of them by far, so
// it starts while the others share the second core instead of running alone at the end
export const coreTestFiles = (root: string): string[] => [
  'spec/layout.test.ts',
  ...FOLDERS.flatMap((f) => readdirSync(join(root, f), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.test.ts')).map((n) => join(f, n))),
];
