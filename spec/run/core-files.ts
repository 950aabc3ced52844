import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The spine's tests: what `npm run test:core` runs (spec/run/core.ts), and what `npm test` runs that
// way first, leaving them out of its processes (spec/run/main.ts).

const FOLDERS = ['spec/commands', 'spec/projections', 'spec/journal'];

/** paths from the repository root */
export const coreTestFiles = (root: string): string[] => [
  ...FOLDERS.flatMap((f) => readdirSync(join(root, f), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.test.ts')).map((n) => join(f, n))),
  'spec/layout.test.ts',
];
