import type { ChildProcess } from 'node:child_process';
import { CLI } from './cli.js';
import { repoRoot } from './env.js';
import { endGroup, spawnGroup } from './process-groups.js';

// The real CLI in a child process, so a test can kill it the hard way; in a process group of its own,
// which the test file ends when its tests are done (process-groups.ts), with the CLIs it started.
export interface ChildServer {
  /** the origin without the trailing `/` that `svc serve` prints, so tests write `${url}/api/...` */
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
}

/** `env`: more environment for the server (a test fixture's switches) */
export const spawnServer = (home: string, env: Readonly<Record<string, string>> = {}): Promise<ChildServer> =>
  new Promise((resolve, reject) => {
    const child = spawnGroup(process.execPath, [...CLI, 'serve', '--port', '0'], {
      cwd: repoRoot, env: { ...process.env, ...env, SVC_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /serving at (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ url: m[1]!.replace(/\/$/, ''), child, output: () => out }); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${out}`)); });
  });

/** resolves once the child server is gone (at once when it is already) */
export const exited = (s: ChildServer): Promise<void> =>
  new Promise((resolve) => (s.child.exitCode !== null || s.child.signalCode !== null ? resolve() : s.child.once('exit', () => resolve())));

export const killHard = (s: ChildServer): Promise<void> => {
  const gone = exited(s);
  s.child.kill('SIGKILL');
  return gone;
};

/**
 * a teardown's end of a server: SIGKILL to its whole group (the git it may have been running too)
 * and the wait for it to be gone, so nothing of this test writes in folders the next one uses
 */
export const endServer = (s: ChildServer): Promise<void> => {
  const gone = exited(s);
  endGroup(s.child);
  return gone;
};

/** a JSON request to the child server's API; its answer's body */
export const callChild = async (s: ChildServer, method: string, path: string, body?: unknown): Promise<any> => {
  const r = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return r.json();
};

/** every event of a run's history, oldest first, read page by page */
export const childHistory = async (s: ChildServer, runId: string): Promise<any[]> => {
  const events: any[] = [];
  let before: number | null | undefined;
  do {
    const page = await callChild(s, 'GET', `/api/runs/${runId}/history?pageSize=200${before ? `&before=${before}` : ''}`);
    events.unshift(...page.events);
    before = page.before;
  } while (before);
  return events;
};
