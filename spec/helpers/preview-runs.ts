import { readdirSync, readFileSync } from 'node:fs';
import { eventually } from './env.js';
import type { TestServer } from './server.js';

// Runs at a gate (their worktree made, no agent turn) and their previews, for the preview specs.

type Api = Pick<TestServer, 'get' | 'post'> & { readonly projectId: string };

export const gateRun = async (s: Api): Promise<string> => {
  const r = await s.post('/api/runs', { project: s.projectId, goal: 'preview me', workflow: 'gate' });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  await eventually(() => s.get(`/api/runs/${r.body.runId}`), (x) => x.body.phase === 'AtGate', 60_000);
  return r.body.runId as string;
};

/** the preview's view once it runs or has stopped */
export const settled = (s: Api, runId: string) =>
  eventually(() => s.get(`/api/runs/${runId}/preview`), (r) => r.body.state === 'running' || r.body.state === 'stopped', 60_000).then((r) => r.body);

export const stoppedView = (s: Api, runId: string) =>
  eventually(() => s.get(`/api/runs/${runId}/preview`), (r) => r.body.state === 'stopped', 30_000).then((r) => r.body);

/**
 * the preview's processes (its lifeline, the dev server, and bubblewrap when it is sandboxed), found
 * in /proc by the SVC_PREVIEW_BASE svc gives each; read once the server has printed that it listens.
 * A pid the server prints is no help: inside svc's sandbox it is the PID namespace's own.
 */
export const previewPids = async (s: Api, runId: string): Promise<number[]> => {
  await eventually(() => s.get(`/api/runs/${runId}/log?pageSize=200`), (r) => (r.body.lines as { text: string }[]).some((l) => /listening on \d+/.test(l.text)));
  const pids = pidsOf(runId);
  if (pids.length === 0) throw new Error(`no process of the preview of ${runId} found in /proc`);
  return pids;
};

export const pidsOf = (runId: string): number[] => {
  const marker = `SVC_PREVIEW_BASE=/preview/${runId}/`;
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('app.mjs');
    } catch {
      return false; // gone, or not ours
    }
  });
};

const alive1 = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};

export const anyAlive = (pids: readonly number[]): boolean => pids.some(alive1);
