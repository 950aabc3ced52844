import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { packageRoot } from '../../lib/package-root.js';

// Shared by the workflow tests: temp homes, files written into temp folders, polling for changes
// that arrive through file watching.

/** Call at the top of a test file: HOME and SVC_HOME in temp folders, removed on exit. */
export const isolateHome = (): { home: string; svcHome: string } => {
  const home = (process.env.HOME = mkdtempSync(join(tmpdir(), 'svc-wf-home-')));
  const svcHome = (process.env.SVC_HOME = mkdtempSync(join(tmpdir(), 'svc-wf-svchome-')));
  process.once('exit', () => [home, svcHome].forEach((d) => rmSync(d, { recursive: true, force: true })));
  return { home, svcHome };
};

export const tempDir = (t: ExecutionContext, prefix = 'svc-wf-'): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

export const write = (dir: string, file: string, text: string): string => {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};

/** polls until check() is true or the time is up; answers whether it became true */
export const eventually = async (check: () => boolean, timeoutMs = 5000): Promise<boolean> => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
};

export const FIXTURES = join(packageRoot(), 'spec/fixtures/workflows');
export const SHIPPED_WORKFLOWS = join(packageRoot(), 'lib/workflows/shipped');
export const SHIPPED_PERSONAS = join(packageRoot(), 'lib/workflows/shipped-personas');

/** a small workflow that loads, with a description to tell versions apart */
export const tinyWorkflow = (description: string, extra = ''): string => `digraph w {
  description="${description}"
  ${extra}
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}
`;
