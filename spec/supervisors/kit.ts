// What the supervisor endpoint tests share: a real server with two projects (the first with a
// project supervisor), the feature on, runs parked at a gate or in an endless agent turn, and
// official MCP SDK clients calling /mcp?supervisor=<key>.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import { CHAT_AGENT_EVENT_CODECS } from '../../journal/chat-agent-events.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import type { Tier } from '../../domain/supervisor.js';
import { gitRepo } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { call, textOf, type CallAnswer } from '../mcp/helpers/call.js';

export const GATE = `digraph gate {
  start [kind=start]
  hold  [kind=gate]
  done  [kind=exit]
  start -> hold -> done
}`;

export interface SupKit {
  readonly s: TestServer;
  readonly token: string;
  /** the second project: no supervisor of its own, so the global one owns its runs */
  readonly otherProject: string;
  /** the first project's supervisor */
  readonly sp: string;
  key(id: string): Promise<string>;
  client(key: string): Promise<Client>;
  setTier(id: string, tier: Tier): Promise<void>;
  patch(id: string, body: object): Promise<any>;
  /** a run of the gate workflow, stopped Paused at its gate */
  gateRun(project: string, goal?: string): Promise<string>;
  /** a run whose agent turn never ends (Running) */
  busyRun(project: string): Promise<string>;
  standing(runId: string): string;
  /** part 1's entries of its chat */
  chat(id: string): { type: string; data: any }[];
  close(): Promise<void>;
}

const json = (headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers });

export const supKit = async (): Promise<SupKit> => {
  // opencode is in a fallback list in these tests but never ready: rule 10's second half
  process.env['SCRIPTED_OPENCODE_DOWN'] = '1';
  const s = await testServer({ workflows: { gate: GATE } });
  const other = await s.service.addProject('other', [{ path: gitRepo() }]);
  if (isLeft(other)) throw new Error(JSON.stringify(other.left));
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), json());
  // runs parked at gates and in endless turns hold their slots
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'RunCap', cap: { _tag: 'Chosen', value: 30 } }), json());
  const made = await s.post('/api/supervisors', { project: s.projectId });
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
  const clients: Client[] = [];
  const token = ensureToken(s.home);
  const patch = async (id: string, body: object) => (await s.send('PATCH', `/api/supervisors/${id}`, JSON.stringify(body), json())).body;
  const until = async (runId: string, standing: string): Promise<string> => {
    for (let i = 0; i < 400; i++) {
      const r = s.service.getRun(runId);
      if (!isLeft(r) && r.right.standing === standing) return runId;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} never became ${standing}`);
  };
  const start = async (project: string, goal: string, workflow: string) => {
    const r = await s.post('/api/runs', { project, goal, workflow });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.runId as string;
  };
  return {
    s, token, otherProject: other.right.id, sp: made.body.id,
    key: async (id) => (await s.get(`/api/supervisors/${id}`)).body.key,
    client: async (key) => {
      const c = new Client({ name: 'supervisor-test', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?supervisor=${encodeURIComponent(key)}`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      clients.push(c);
      return c;
    },
    setTier: async (id, tier) => void (await patch(id, { actions: { messageAndControl: tier, secureWork: tier, switchHarness: tier, startRuns: tier, archiveRuns: tier } })),
    patch,
    gateRun: async (project, goal = 'hold here') => until(await start(project, goal, 'gate'), 'Paused'),
    busyRun: async (project) => until(await start(project, '[silent]', 'linear'), 'Running'),
    standing: (runId) => { const r = s.service.getRun(runId); return isLeft(r) ? 'unknown' : r.right.standing; },
    // part 1's entries: the live agent (running while the feature is on) adds its turns to the same stream
    chat: (id) => s.service.core.journal.read(`supervisor-chat:${id}`).filter((e) => !(e.type in CHAT_AGENT_EVENT_CODECS)).map((e) => ({ type: e.type, data: e.data })),
    close: async () => {
      for (const c of clients) await c.close();
      await s.close();
    },
  };
};

export const ask = call;
export { textOf, type CallAnswer };
