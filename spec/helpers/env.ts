import { cpSync, existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOOPBACK_REGISTRY } from './loopback-npm.js';

// Every test file runs in its own process: HOME and SVC_HOME point at temp folders before anything
// else runs, so no test can touch the user's real ~/.svc or git config.

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * a TypeScript fixture a server imports by path at run time (spec/fixtures/...): the source, or under
 * `npm test` its bundle (spec/run/suite.ts runtimeFixtures, which finds the calls of this), which a process without tsx can load
 */
export const fixtureModule = (...parts: string[]): string => {
  const bundles = process.env['SVC_SPEC_BUNDLES'];
  const rel = join('spec', 'fixtures', ...parts);
  return bundles ? join(bundles, rel.replace(/\.ts$/, '.mjs')) : join(repoRoot, rel);
};

export const tempDir = (prefix = 'svc-test-'): string => mkdtempSync(join(tmpdir(), prefix));

const home = tempDir('svc-home-');
process.env['HOME'] = home;
process.env['SVC_HOME'] = join(home, '.svc');
process.env['SVC_HARNESS_MODULE'] = fixtureModule('harness', 'scripted.ts');
process.env['GIT_CONFIG_NOSYSTEM'] = '1';
process.env['npm_config_registry'] = LOOPBACK_REGISTRY; // why: spec/helpers/loopback-npm.ts
process.env['npm_config_cache'] = join(home, '.npm');

const makeRepo = (dir: string, files: Record<string, string>): string => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  return dir;
};

// The default repository is made once per test process and copied for each caller (a real
// repository all the same, its own folder): every server start made one with four git processes
// (init, add, commit and the commit's maintenance check), about 2% of the git a sample of twenty
// spec files ran.
let template: string | undefined;

/** A git repository with one commit on main. */
export const gitRepo = (files?: Record<string, string>): string => {
  const dir = tempDir('svc-repo-');
  if (files) return makeRepo(dir, files);
  template ??= makeRepo(tempDir('svc-repo-template-'), { 'README.md': '# test\n' });
  cpSync(template, dir, { recursive: true, preserveTimestamps: true });
  return dir;
};

export const freshHome = (): string => join(tempDir('svc-home-'), '.svc');

export const writeWorkflow = (home: string, name: string, source: string): void => {
  mkdirSync(join(home, 'workflows'), { recursive: true });
  writeFileSync(join(home, 'workflows', `${name}.dot`), source);
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The JSON lines a program has finished writing to a file so far: a last line still being written
 * (no newline yet) is not read, so a test polling the file never parses half a line.
 */
export const writtenJsonLines = (file: string): any[] => {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
};

/**
 * The first line of a file once a program has finished writing it (ended by its newline), else '':
 * a wait polling the file never takes a half-written value (a port cut short, part of a URL).
 */
export const writtenLine = (file: string): string => {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const end = text.indexOf('\n');
  return end < 0 ? '' : text.slice(0, end);
};

export const eventually = async <T>(f: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  let last = await f();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await sleep(25);
    last = await f();
  }
  return last;
};
