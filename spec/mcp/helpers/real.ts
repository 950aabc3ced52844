import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readToken } from '../../../lib/auth/mcp-token.js';
import { eventually } from '../../helpers/env.js';
import { setRunCap, worktreeOf } from '../../helpers/http-kit.js';
import { testServer, type TestServer } from '../../helpers/server.js';
import { control, detail, startRun, untilStanding } from '../../helpers/steer.js';

// The real server (service, LMDB in a temp SVC_HOME, HTTP on an ephemeral loopback port) with the
// official SDK client on /mcp, and runs put in the standing a test needs through the real engine
// with the scripted harness (spec/fixtures/harness): no stand-in for the service.

/** Two agent steps, so a running run has a node to Jump to. The goal is the first step's script. */
export const TWO_STEPS = `digraph two {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  review [kind=agent, prompt="[report:success]"]
  done   [kind=exit]
  start -> work -> review -> done
}`;

export interface McpServer extends TestServer {
  readonly token: string;
  connect(name?: string, token?: string): Promise<Client>;
  /** a run whose agent turn goes on until stopped: Running, its turn in step `work` under way */
  running(goal?: string): Promise<string>;
  /** a run whose agent asks `prompt` (`[ask:PROMPT|OPT|OPT]` directive syntax) and waits: standing Question */
  asking(ask: string): Promise<{ runId: string; questionId: string }>;
  /** an ended run (aborted before it started) */
  ended(): Promise<string>;
  /** the run's position now, for a control */
  position(runId: string): Promise<string>;
  /** turn an MCP tool group or the whole endpoint on or off, through PUT /api/settings */
  setting(change: Record<string, unknown>): Promise<void>;
}

export const mcpServer = async (o: { workflows?: Record<string, string>; repo?: string } = {}): Promise<McpServer> => {
  const s = await testServer({ workflows: { two: TWO_STEPS, ...(o.workflows ?? {}) }, ...(o.repo ? { repo: o.repo } : {}) });
  await setRunCap(s, 64);
  // the server makes its token when it mounts /mcp; the test only reads it, as `svc mcp token` would
  const token = readToken(s.home);
  if (!token) throw new Error('the server made no MCP token');
  const connect = async (name = 'test-agent', bearer = token): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
    return client;
  };
  const running = async (goal = '[silent]') => {
    const runId = await startRun(s, { goal, workflow: 'two' });
    await eventually(() => detail(s, runId), (d) => d.standing === 'Running' && d.phase === 'Executing' && d.currentStep === 'work');
    return runId;
  };
  const setting = async (change: Record<string, unknown>) => {
    const r = await s.send('PUT', '/api/settings', JSON.stringify(change));
    if (r.status !== 200) throw new Error(`setting not changed: ${r.status} ${JSON.stringify(r.body)}`);
  };
  return {
    ...s, token, connect, running, setting,
    position: async (runId) => (await detail(s, runId)).position as string,
    asking: async (ask) => {
      const runId = await startRun(s, { goal: `[ask:${ask}]`, workflow: 'two' });
      const d = await untilStanding(s, runId, 'Question');
      return { runId, questionId: d.question.id as string };
    },
    ended: async () => {
      const runId = await startRun(s, { goal: 'never started', workflow: 'two', start: false });
      const r = await control(s, runId, 'Abort');
      if (r.body?.outcome !== 'Applied') throw new Error(`abort not applied: ${JSON.stringify(r.body)}`);
      return runId;
    },
  };
};

/** Lets a scripted agent waiting on `[until:NAME]` go on. */
export const release = async (s: TestServer, runId: string, name: string): Promise<void> => {
  writeFileSync(join(await worktreeOf(s, runId), name), 'go\n');
};
