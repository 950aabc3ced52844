import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleCli, bundleSpecs } from './bundle.js';
import { besideNetwork, drivesBrowser, lanesOf, longestFirst, networkFiles, type FileCpu, type FileTimes } from './schedule.js';

// What `npm test` hands ava: every spec file bundled (spec/run/bundle.ts) under dist/suite-spec,
// with the CLI's entry (the tests' `svc` children run it: spec/helpers/cli.ts) and the fixtures a
// server imports by path at run time (spec/helpers/env.ts fixtureModule), and a config that is
// package.json's ava settings with those bundles as the files, in the order of
// spec/run/schedule.ts. Nothing left is TypeScript, so neither the test processes nor the `svc`
// children load tsx: its loader hooks cost each process that starts a server about 0.6 s of CPU
// (measured: importing the CLI's bundle took 1.5 s of CPU with tsx, 0.7 s without).

export const SUITE_OUT = join('dist', 'suite-spec');
const CLI_ENTRY = join('lib', 'cli', 'run.ts');
// `fixtureModule('harness', 'scripted.ts')`: the parts are string literals, so the calls can be read
const FIXTURE_CALL = /fixtureModule\(\s*((?:'[^'\n]+'\s*,\s*)*'[^'\n]+')\s*\)/g;

/**
 * the TypeScript a server imports by a path it is given (SVC_HARNESS_MODULE, SVC_FORK_PROBE_MODULE):
 * every fixture the spec sources name through fixtureModule, found in their text, so a new one is
 * bundled without a list to keep. A call whose parts are not plain strings is refused here, at
 * once, rather than leaving its fixture unbundled for a test to fail on later.
 */
export const runtimeFixtures = (root: string): string[] => {
  const found = new Set<string>();
  // the runner's own sources (spec/run/) hold the helper's name as words, not as calls
  const sources = readdirSync(join(root, 'spec'), { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts') && !n.startsWith('run/'));
  for (const name of sources) {
    const text = readFileSync(join(root, 'spec', name), 'utf8');
    const calls = text.match(/fixtureModule\(/g)?.length ?? 0;
    const read = [...text.matchAll(FIXTURE_CALL)];
    // the helper's own definition is `fixtureModule = (...parts` (no parenthesis right after the name)
    if (read.length !== calls) throw new Error(`spec/${name}: a call of fixtureModule whose parts are not plain strings; name the fixture's folder and file as literals`);
    for (const m of read) found.add(join('spec', 'fixtures', ...[...m[1]!.matchAll(/'([^']+)'/g)].map((p) => p[1]!)));
  }
  const missing = [...found].filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) throw new Error(`fixtureModule names fixtures that do not exist: ${missing.join(', ')}`);
  return [...found].sort();
};

const specFiles = (root: string): string[] =>
  readdirSync(join(root, 'spec'), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.test.ts')).map((n) => join('spec', n)).sort();

const bundleOf = (file: string): string => join(SUITE_OUT, file.replace(/\.ts$/, '.mjs'));

/** a command-line argument naming spec sources, turned to the bundles (`spec/web/app.test.ts`, `spec/web`) */
export const toBundles = (arg: string): string =>
  (arg.startsWith('spec/') || arg === 'spec' ? join(SUITE_OUT, arg.replace(/\.test\.ts$/, '.test.mjs')) : arg);

export interface Suite {
  /**
   * ava's --config files, relative to the root, phase by phase: the configs of a phase run side by
   * side, and a phase starts when the one before has ended. With files named, one phase of one.
   */
  readonly phases: readonly (readonly string[])[];
  /** the bundled CLI entry, for SVC_SPEC_CLI */
  readonly cli: string;
  /** the folder the bundles are in, for SVC_SPEC_BUNDLES: fixtureModule finds the runtime fixtures there */
  readonly bundles: string;
}

const readJson = <T>(path: string, otherwise: T): T => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) as T : otherwise);

/** package.json's ava settings with `files` (bundles, in this order) and `concurrency`, as an ava config file */
const writeConfig = (root: string, name: string, ava: Record<string, unknown>, files: readonly string[], concurrency: unknown): string => {
  const order = files.map((f) => join(root, bundleOf(f)));
  // SVC_TEST_CPU_LOG: each test process records its life and CPU there (spec/run/cpu-probe.mjs)
  const probe = process.env['SVC_TEST_CPU_LOG'] ? [`--import=${join(import.meta.dirname, 'cpu-probe.mjs')}`] : [];
  const config = {
    ...ava, concurrency, files: files.map(bundleOf), extensions: ['mjs'],
    nodeArguments: [...((ava['nodeArguments'] as string[] | undefined) ?? []).filter((a) => a !== '--import=tsx'), '--enable-source-maps', ...probe],
  };
  writeFileSync(join(root, SUITE_OUT, name), [
    `const order = ${JSON.stringify(order)};`,
    'const rank = (f) => { const i = order.indexOf(f); return i < 0 ? -1 : i; };',
    `export default { ...${JSON.stringify(config)}, sortTestFiles: (a, b) => rank(a) - rank(b) };`,
    '',
  ].join('\n'));
  return join(SUITE_OUT, name);
};

/**
 * A whole run's phases (spec/run/schedule.ts): the busy lane with the waiting lane beside it (one
 * file at a time: it mostly sleeps); then the files that change the network, two at once, with
 * files kept back for then that drive no browser beside them, one at a time; then the network
 * files that drive a browser, alone. SVC_TEST_WAITING_CONCURRENCY=0 puts the waiting files back
 * in the busy lane.
 */
const wholeRun = (root: string, ava: Record<string, unknown>, files: readonly string[], times: FileTimes, concurrency: unknown): string[][] => {
  const cpu = readJson<FileCpu>(join(root, 'spec', 'run', 'file-cpu.json'), {});
  const texts = new Map<string, string>();
  const source = (f: string): string => texts.get(f) ?? texts.set(f, readFileSync(join(root, f), 'utf8')).get(f)!;
  const net = networkFiles(files, source);
  const rest = files.filter((f) => !net.plain.includes(f) && !net.browser.includes(f));
  const browser = (f: string): boolean => drivesBrowser(f, source(f));
  const waitingAtOnce = Number(process.env['SVC_TEST_WAITING_CONCURRENCY'] ?? 1);
  const split = waitingAtOnce > 0 ? lanesOf(rest, times, cpu, browser) : { busy: longestFirst(rest, times), waiting: [] };
  const beside = besideNetwork(split.busy.filter((f) => !browser(f)), net.plain, times);
  // ava refuses a config without files: a lane with none is left out, and so is a phase
  const lane = (name: string, files: readonly string[], atOnce: unknown): string[] => (files.length ? [writeConfig(root, name, ava, files, atOnce)] : []);
  return [
    [...lane('ava.config.mjs', split.busy.filter((f) => !beside.includes(f)), concurrency), ...lane('ava-waiting.config.mjs', split.waiting, waitingAtOnce)],
    [...lane('ava-network.config.mjs', longestFirst(net.plain, times), concurrency), ...lane('ava-beside-network.config.mjs', beside, 1)],
    lane('ava-network-browser.config.mjs', longestFirst(net.browser, times), 1),
  ].filter((phase) => phase.length > 0);
};

/**
 * bundles the spec files and the CLI, and writes the configs; `leaveOut`: files ava is not to run;
 * `whole`: a whole run, in phases and lanes; otherwise one config of all (the files named)
 */
export const prepareSuite = async (root: string, leaveOut: readonly string[] = [], whole = false): Promise<Suite> => {
  const out = join(root, SUITE_OUT);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = specFiles(root).filter((f) => !leaveOut.includes(f));
  await bundleSpecs(root, [...files, ...runtimeFixtures(root)], out);
  await bundleCli(root, CLI_ENTRY, join(root, bundleOf(CLI_ENTRY)));
  const ava = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { ava: Record<string, unknown> }).ava;
  const times = readJson<FileTimes>(join(root, 'spec', 'run', 'file-times.json'), {});
  // SVC_TEST_CONCURRENCY tries another number of files at once than package.json's (2, for CI's
  // two cores) without editing it; SVC_TEST_WAITING_CONCURRENCY the waiting lane's (0: none)
  const concurrency = Number(process.env['SVC_TEST_CONCURRENCY']) || ava['concurrency'];
  const phases = whole ? wholeRun(root, ava, files, times, concurrency) : [[writeConfig(root, 'ava.config.mjs', ava, longestFirst(files, times), concurrency)]];
  return { phases, cli: join(root, bundleOf(CLI_ENTRY)), bundles: out };
};
