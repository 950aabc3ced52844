import type { TestServer } from './server.js';
import { eventually } from './env.js';

// Steering a run over HTTP the way the app does: read the detail, act with its position.
export const detail = async (s: TestServer, runId: string) => (await s.get(`/api/runs/${runId}/detail`)).body;

export const control = async (s: TestServer, runId: string, action: string, extra: Record<string, unknown> = {}) => {
  const d = await detail(s, runId);
  return s.post(`/api/runs/${runId}/control`, { position: d.position, action, ...extra });
};

export const startRun = async (s: TestServer, body: Record<string, unknown>): Promise<string> => {
  const r = await s.post('/api/runs', { project: s.projectId, ...body });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.runId as string;
};

export const untilStanding = (s: TestServer, runId: string, standing: string, timeoutMs?: number) =>
  eventually(() => detail(s, runId), (d) => d.standing === standing, timeoutMs);

export const history = async (s: TestServer, runId: string): Promise<any[]> => {
  const events: any[] = [];
  let before: number | null | undefined;
  do {
    const page = (await s.get(`/api/runs/${runId}/history?pageSize=200${before ? `&before=${before}` : ''}`)).body;
    events.unshift(...page.events);
    before = page.before;
  } while (before);
  return events;
};
