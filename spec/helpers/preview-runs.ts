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

/** the dev server's own pid, as the fixture app prints it into the run log */
export const appPid = async (s: Api, runId: string): Promise<number> => {
  const log = await eventually(() => s.get(`/api/runs/${runId}/log?pageSize=200`), (r) => (r.body.lines as { text: string }[]).some((l) => /listening on \d+ pid \d+/.test(l.text)));
  const line = (log.body.lines as { text: string }[]).filter((l) => /listening on \d+ pid \d+/.test(l.text)).at(-1)!;
  return Number(/pid (\d+)/.exec(line.text)![1]);
};

export const alive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};
