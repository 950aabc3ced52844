// What the live-supervisor tests share: the REAL server with the supervisor feature switched on
// over HTTP, its supervisors' turns on the real claude CLI (runs stay on the scripted stand-in),
// the CLI pointed at the scripted model server, and the chat read over HTTP.
import type { ExecutionContext } from 'ava';
import { join } from 'node:path';
import { startModelServer, type ModelServer } from '../fixtures/model-server/server.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { eventually, fixtureModule, repoRoot } from '../helpers/env.js';
import { realCliEnv } from '../helpers/real-run.js';
import { writeCodexConfig } from '../harness/sandbox.js';
import { testServer, type TestServer } from '../helpers/server.js';

export interface ChatEntry { seq: number; at: string; type: string; data: any }

export interface LiveKit {
  readonly s: TestServer;
  readonly model: ModelServer;
  /** the global supervisor, made when the feature was switched on */
  readonly global: string;
  chat(id: string): Promise<ChatEntry[]>;
  /** the chat once `ok` holds (real CLI turns: a generous wait) */
  until(id: string, ok: (c: ChatEntry[]) => boolean, timeoutMs?: number): Promise<ChatEntry[]>;
  write(id: string, text: string, sender?: string): Promise<{ status: number; body: any }>;
  patch(id: string, body: object): Promise<{ status: number; body: any }>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** turns on real claude (SVC_SUPERVISOR_HARNESSES=cli); runs on spec/fixtures/harness/scripted.ts */
export const pointSupervisorsAtModel = (modelUrl: string): void => {
  realCliEnv('claude');
  Object.assign(process.env, {
    SVC_SUPERVISOR_HARNESSES: 'cli',
    SVC_HARNESS_MODULE: fixtureModule('harness', 'scripted.ts'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-test',
  });
};

/** codex too, for a supervisor whose harness is codex (call after pointSupervisorsAtModel: CODEX_HOME) */
export const pointCodexAtModel = (modelUrl: string): void => {
  Object.assign(process.env, { SVC_HARNESS_BIN_CODEX: join(repoRoot, 'node_modules', '.bin', 'codex'), OPENAI_API_KEY: 'sk-test' });
  writeCodexConfig({ root: '', repo: '', env: process.env, cleanup: () => undefined }, modelUrl);
};

export const types = (c: readonly ChatEntry[]): string[] => c.map((e) => e.type);

export const chatOver = (get: TestServer['get']) => async (id: string): Promise<ChatEntry[]> => {
  const entries: ChatEntry[] = [];
  let before: number | null = null;
  do {
    const r = await get(`/api/supervisors/${id}/chat?pageSize=200${before ? `&before=${before}` : ''}`);
    if (r.status !== 200) throw new Error(`chat: ${r.status} ${JSON.stringify(r.body)}`);
    entries.unshift(...r.body.entries);
    before = r.body.before;
  } while (before);
  return entries;
};

export const liveKit = async (t: ExecutionContext, script: ModelTurn[]): Promise<LiveKit> => {
  const model = await startModelServer(script);
  pointSupervisorsAtModel(model.url);
  const s = await testServer();
  t.teardown(async () => (await s.close(), await model.close()));
  const on = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
  if (on.status !== 200) throw new Error(JSON.stringify(on.body));
  const global = ((await s.get('/api/supervisors')).body as { id: string; project: string | null }[]).find((x) => x.project === null)!.id;
  const chat = chatOver(s.get);
  return {
    s, model, global, chat,
    until: (id, ok, timeoutMs = 150_000) => eventually(() => chat(id), ok, timeoutMs),
    write: (id, text, sender) => s.post(`/api/supervisors/${id}/chat`, { text }, sender ? { 'svc-setting-source': sender } : {}),
    patch: (id, body) => s.send('PATCH', `/api/supervisors/${id}`, JSON.stringify(body), JSON_TYPE),
  };
};
