import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleSpecs } from './bundle.js';
import { longestFirst, type FileTimes } from './schedule.js';

// What `npm test` hands ava: every spec file bundled (spec/run/bundle.ts) under dist/suite-spec,
// with the CLI's entry (the tests' `svc` children run it: spec/helpers/cli.ts), and a config that
// is package.json's ava settings with those bundles as the files, in the order of
// spec/run/schedule.ts. The processes still load tsx: fixtures a test names by path (the scripted
// harness, probes) are TypeScript loaded at run time, as before.

export const SUITE_OUT = join('dist', 'suite-spec');
const CLI_ENTRY = join('lib', 'cli', 'run.ts');

const specFiles = (root: string): string[] =>
  readdirSync(join(root, 'spec'), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.test.ts')).map((n) => join('spec', n)).sort();

const bundleOf = (file: string): string => join(SUITE_OUT, file.replace(/\.ts$/, '.mjs'));

/** a command-line argument naming spec sources, turned to the bundles (`spec/web/app.test.ts`, `spec/web`) */
export const toBundles = (arg: string): string =>
  (arg.startsWith('spec/') || arg === 'spec' ? join(SUITE_OUT, arg.replace(/\.test\.ts$/, '.test.mjs')) : arg);

export interface Suite {
  /** ava's --config, relative to the root */
  readonly config: string;
  /** the bundled CLI entry, for SVC_SPEC_CLI */
  readonly cli: string;
}

/** bundles the spec files and the CLI, and writes the config; `leaveOut`: files ava is not to run */
export const prepareSuite = async (root: string, leaveOut: readonly string[] = []): Promise<Suite> => {
  const out = join(root, SUITE_OUT);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = specFiles(root).filter((f) => !leaveOut.includes(f));
  await bundleSpecs(root, [...files, CLI_ENTRY], out);
  const ava = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { ava: Record<string, unknown> }).ava;
  const times = JSON.parse(readFileSync(join(root, 'spec', 'run', 'file-times.json'), 'utf8')) as FileTimes;
  const order = longestFirst(files, times).map((f) => join(root, bundleOf(f)));
  // SVC_TEST_CONCURRENCY tries another number of files at once than package.json's (2, for CI's
  // two cores) without editing it: some files spend most of their time waiting on a clock
  const concurrency = Number(process.env['SVC_TEST_CONCURRENCY']) || ava['concurrency'];
  const config = {
    ...ava, concurrency, files: files.map(bundleOf), extensions: ['mjs'],
    nodeArguments: [...((ava['nodeArguments'] as string[] | undefined) ?? []), '--enable-source-maps'],
  };
  writeFileSync(join(out, 'ava.config.mjs'), [
    `const order = ${JSON.stringify(order)};`,
    'const rank = (f) => { const i = order.indexOf(f); return i < 0 ? -1 : i; };',
    `export default { ...${JSON.stringify(config)}, sortTestFiles: (a, b) => rank(a) - rank(b) };`,
    '',
  ].join('\n'));
  return { config: relative(root, join(out, 'ava.config.mjs')), cli: join(root, bundleOf(CLI_ENTRY)) };
};
