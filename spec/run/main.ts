import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium as playwrightChromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium, machineProbe, plan, sharedBrowserPath } from './chromium.js';
import { coreTestFiles } from './core-files.js';
import { runLanes, sayAgain, type LaneResult } from './lanes.js';
import { prepareSuite, toBundles } from './suite.js';
import { SUITE_VARIABLE, endSurvivors, settledSurvivors, survivorReport } from './survivors.js';

// `npm test`: make sure the browser tests have a Chromium (installing Debian's when running as
// root), type-check, build the browser app, bundle the spec files (spec/run/suite.ts: each test
// process then loads one file, not every module of lib/ through tsx; the slowest files go first),
// then run ava with any arguments given (`npm test -- spec/web/app.test.ts` runs that file's bundle).
// Chromium comes first so a machine without it fails in seconds, not after the type-check; when it
// cannot be had, nothing else runs: a green run always includes the browser tests. Afterwards,
// anything a test started that is still running fails the run (spec/run/survivors.ts).

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const run = (cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): number => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.error) { console.error(`npm test: ${cmd}: ${r.error.message}`); return 1; }
  return r.status ?? 1;
};

const chromium = (): string => {
  const first = plan(machineProbe());
  if (first._tag === 'Found') return first.path;
  if (first._tag === 'Missing') {
    console.error(`npm test: ${first.advice}`);
    process.exit(1);
  }
  console.error('npm test: Debian\'s Chromium is missing; installing it for the browser tests (running as root).');
  for (const [cmd, ...args] of first.commands) {
    if (run(cmd!, args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }) !== 0) {
      console.error(`npm test: \`${[cmd, ...args].join(' ')}\` failed; install Chromium yourself (apt-get install -y chromium) and run \`npm test\` again.`);
      process.exit(1);
    }
  }
  const after = findChromium(machineProbe());
  if (!after) { console.error('npm test: apt-get installed chromium, yet no executable chromium was found.'); process.exit(1); }
  return after;
};

// The sandbox specs run Debian's bubblewrap for real (docs/sandbox.md), and the worker specs
// Debian's nats-server (docs/workers.md): as root each is installed when missing, as Chromium is;
// otherwise the run stops at once with the command that installs it.
const onPath = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
const debianPackage = (pkg: string, bin: string, why: string): void => {
  if (onPath(bin)) return;
  if (process.getuid?.() !== 0) {
    console.error(`npm test: ${why} need Debian's ${pkg}. Run:\n\n  sudo apt-get install -y ${pkg}\n\nthen \`npm test\` again.`);
    process.exit(1);
  }
  console.error(`npm test: ${pkg} is missing; installing it for ${why} (running as root).`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update'], env) !== 0 || run('apt-get', ['install', '-y', pkg], env) !== 0 || !onPath(bin)) {
    console.error(`npm test: \`apt-get install -y ${pkg}\` failed; install it yourself and run \`npm test\` again.`);
    process.exit(1);
  }
};

// The browser tests read SVC_CHROMIUM (spec/helpers/browser.ts): they drive the one found here.
const env = { ...process.env, SVC_CHROMIUM: chromium() };
// The run's shared browser is the headless shell when installed (spec/run/chromium.ts
// sharedBrowserPath: less CPU per page), decided here so a bad SVC_SHARED_CHROMIUM stops the run at once.
const sharedChromium = (): string => {
  const path = sharedBrowserPath(machineProbe(), env.SVC_CHROMIUM);
  if (path) return path;
  console.error(`npm test: SVC_SHARED_CHROMIUM is ${process.env['SVC_SHARED_CHROMIUM']}, which is not an executable file. Point it at a Chromium, or unset it.`);
  process.exit(1);
};
const sharedExecutable = sharedChromium();
debianPackage('bubblewrap', 'bwrap', 'the sandbox specs');
debianPackage('nats-server', 'nats-server', 'the worker specs');
debianPackage('iproute2', 'ip', 'the remote worker spec (a worker in its own network namespace)');
debianPackage('openssl', 'openssl', 'the worker specs (the hub makes its TLS certificate)');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// The type-check (one core, about 25 s) runs while the app is built and the spine's tests run; the
// rest waits for it, and a type error stops the run there.
const typeChecked = new Promise<number>((done) => {
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
  child.on('error', (e) => { console.error(`npm test: tsc: ${e.message}`); done(1); });
  child.on('close', (code) => done(code ?? 1));
});
// The browser app is generated (web-dist/ is not committed): the browser tests need it built, and
// with SVC_WEB_DIST_BUILT (below) they take this build instead of each building it again.
if (run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-web.ts')]) !== 0) process.exit(1);

// One temp folder for the whole run, named in the environment every test process inherits: what
// outlives ava is found by it. A Ctrl-C ends ava; this process stays to end what the tests left.
const suiteDir = mkdtempSync(join(tmpdir(), 'svc-suite-'));
let interrupted = false;
process.on('SIGINT', () => { interrupted = true; });
const ava = join(root, 'node_modules', 'ava', 'entrypoints', 'cli.mjs');
const args = process.argv.slice(2);
// The whole suite runs the spine's tests first as `npm run test:core` does, in worker threads of one
// process (spec/run/core.ts: seconds, where a process per file costs one each); ava's processes
// then run the rest. With arguments, ava runs what they name, whatever it is.
const whole = args.length === 0;
const testEnv = { ...env, TMPDIR: suiteDir, [SUITE_VARIABLE]: suiteDir };
const coreStatus = whole ? run(process.execPath, ['--import', 'tsx', join(root, 'spec', 'run', 'core.ts')], testEnv) : 0;
if (await typeChecked !== 0) process.exit(1);
// A whole run goes in phases of lanes (spec/run/schedule.ts, suite.ts): the files that mostly wait
// run beside the busy ones instead of taking their places, and the files that change the network
// run after them, where no browser of another file is loading.
const suite = await prepareSuite(root, whole ? coreTestFiles(root) : [], whole);
// One Chromium for the whole run, each browser test file connecting to it (spec/web/browser.ts
// sharedBrowser) with contexts of its own: a launch costs about a second of CPU, and 60-odd files
// each made one. It runs with the tests' environment, so it is found by the survivors check too.
const browserServer = await playwrightChromium.launchServer({ executablePath: sharedExecutable, args: [...CHROMIUM_ARGS], env: testEnv });
// The real CLIs' versions are read once for the whole run (lib/harness/version-cache.ts), not at
// every server start of every file: opencode's --version alone took 1.6 s of CPU, 77 times a run.
const versionCache = join(suiteDir, 'cli-versions.json');
const avaEnv = { ...testEnv, SVC_SPEC_CLI: suite.cli, SVC_SPEC_BUNDLES: suite.bundles, SVC_WEB_DIST_BUILT: '1', SVC_SPEC_BROWSER_WS: browserServer.wsEndpoint(), SVC_CLI_VERSION_CACHE: versionCache };
const results: LaneResult[] = [];
for (const phase of suite.phases) {
  if (interrupted) break;
  results.push(...await runLanes(phase.map((config) => [process.execPath, ava, '--config', config, ...args.map(toBundles)]), root, avaEnv));
}
await browserServer.close();
if (results.length > 1) sayAgain(results);
const avaStatus = interrupted ? 130 : results.find((r) => r.code !== 0)?.code ?? 0;
const status = avaStatus !== 0 ? avaStatus : coreStatus;

// A browser or server told to stop as the last test ended may take a moment to go: settled waits.
const left = await settledSurvivors(suiteDir);
endSurvivors(left);
if (interrupted) process.exit(130);
if (left.length > 0) {
  console.error(survivorReport(left));
  process.exit(1);
}
if (status === 0) rmSync(suiteDir, { recursive: true, force: true });
process.exit(status);
