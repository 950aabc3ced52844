import { eventually } from './env.js';
import type { TestServer } from './server.js';
import { detail, history } from './steer.js';

// Small steps the HTTP suites share: the run cap, waiting for an event, a run's worktree.

export const setRunCap = async (s: TestServer, value: number): Promise<void> => {
  const r = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'RunCap', cap: { _tag: 'Chosen', value } }));
  if (r.status !== 200) throw new Error(`run cap not set: ${r.status} ${JSON.stringify(r.body)}`);
};

export const eventsOf = async (s: TestServer, runId: string, type: string): Promise<any[]> => (await history(s, runId)).filter((e) => e.type === type);

/** Waits until the run's history holds at least `count` events of `type`. */
export const untilEvents = (s: TestServer, runId: string, type: string, count = 1, timeoutMs = 30_000): Promise<any[]> =>
  eventually(() => eventsOf(s, runId, type), (es) => es.length >= count, timeoutMs);

export const untilEnded = (s: TestServer, runId: string, timeoutMs = 30_000) =>
  eventually(() => detail(s, runId), (d) => ['Succeeded', 'Failed', 'Aborted'].includes(d.standing), timeoutMs);

/** The directory of the run's worktree of its primary folder. */
export const worktreeOf = async (s: TestServer, runId: string): Promise<string> => {
  const r = await s.get(`/api/runs/${runId}/worktree`);
  if (r.status !== 200) throw new Error(`no worktree: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.folders[0].directory as string;
};

/** A body-less or JSON request whose answer must be a 4xx with a detail. */
export const isRefusal = (r: { status: number; body: any }): boolean =>
  r.status >= 400 && r.status < 500 && typeof r.body?.detail === 'string' && r.body.detail.trim() !== '';

/** A control on a run the engine is moving: a Stale answer is read again and the action re-sent. */
export const controlApplied = async (s: TestServer, runId: string, action: string, tries = 20): Promise<{ status: number; body: any }> => {
  for (let i = 0; ; i++) {
    const d = await detail(s, runId);
    const r = await s.post(`/api/runs/${runId}/control`, { position: d.position, action });
    if (r.body?.outcome !== 'Stale' || i >= tries) return r;
  }
};
