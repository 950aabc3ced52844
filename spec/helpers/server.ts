import { isLeft } from 'fp-ts/lib/Either.js';
import { startServer, type RunningServer } from '../../lib/cli/serve.js';
import { freshHome, gitRepo, writeWorkflow } from './env.js';
import type { Clock } from '../../lib/clock.js';

// A real server on an ephemeral loopback port, with its own home, a project on a real git repo,
// and the workflows a test needs written as home workflows.

export interface TestServer extends RunningServer {
  readonly home: string;
  readonly projectId: string;
  readonly repo: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  send(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

export const LINEAR = `digraph linear {
  inputs="ticket"
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}`;

/** An agent step, then a gate a person opens: runs that stop where a person is needed. */
export const GATED = `digraph gated {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  review [kind=gate]
  done   [kind=exit]
  start -> work -> review -> done
}`;

/** Only a gate: a run that needs a person at once, with no agent turn before it. */
export const GATE_ONLY = `digraph gate {
  start  [kind=start]
  review [kind=gate]
  done   [kind=exit]
  start -> review -> done
}`;

/** Only the success route leaves `work`: a failed step fails the run (LINEAR's route is taken on any outcome). */
export const STRICT = `digraph strict {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work
  work -> done [condition="outcome=success"]
}`;

const call = (url: string) => async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed as any };
};

export const testServer = async (o: { workflows?: Record<string, string>; home?: string; repo?: string; keepAliveMs?: number; clock?: Clock } = {}): Promise<TestServer> => {
  const home = o.home ?? freshHome();
  for (const [name, src] of Object.entries({ linear: LINEAR, ...(o.workflows ?? {}) })) writeWorkflow(home, name, src);
  const s = await startServer({ home, port: 0, bind: '127.0.0.1', ...(o.keepAliveMs ? { keepAliveMs: o.keepAliveMs } : {}), ...(o.clock ? { clock: o.clock } : {}) });
  const repo = o.repo ?? gitRepo();
  const existing = s.service.listProjects()[0];
  let projectId = existing?.id;
  if (!projectId) {
    const p = await s.service.addProject('demo', [{ path: repo }]);
    if (isLeft(p)) throw new Error(JSON.stringify(p.left));
    projectId = p.right.id;
  }
  const send = call(s.url);
  return {
    ...s, home, projectId, repo,
    send,
    get: (path, headers) => send('GET', path, undefined, headers),
    post: (path, body, headers) => send('POST', path, body === undefined ? '{}' : JSON.stringify(body), headers),
  };
};
