import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, repoRoot } from './env.js';

// A real project for the preview specs: a git repository holding the fixture's dev server
// (spec/fixtures/preview/app.mjs, reads PORT) and its setup, with a lockfile setup runs against.

const fixture = (name: string): string => readFileSync(join(repoRoot, 'spec', 'fixtures', 'preview', name), 'utf8');

export const previewRepo = (files: Record<string, string> = {}): string => gitRepo({
  'app.mjs': fixture('app.mjs'), 'setup.mjs': fixture('setup.mjs'),
  'package-lock.json': '{"lockfileVersion":3}\n', '.gitignore': '.setup-ran\n', ...files,
});

/** the fixture's preview command: node app.mjs, with node setup.mjs as setup */
export const PREVIEW = { argv: [process.execPath, 'app.mjs'], setup: [process.execPath, 'setup.mjs'] };
