// What the supervisor-turn tests share: the real server with the feature on (live-kit.ts), the
// global supervisor's real key as GET /api/supervisors shows it, and turn deps on the real
// CLIs that reach the server's own endpoint, <url>/mcp?supervisor=<key>, with its bearer token.
import type { ExecutionContext } from 'ava';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { supervisorHarnesses } from '../../lib/supervisors/agent/harnesses.js';
import { supervisorEndpointUrl, type SupervisorTurnDeps } from '../../lib/supervisors/agent/turn.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { liveKit, type LiveKit } from './live-kit.js';

export interface TurnKit extends LiveKit {
  /** the global supervisor's key */
  readonly key: string;
  readonly deps: SupervisorTurnDeps;
  /** the CLI's log lines */
  readonly logs: string[];
}

export const turnKit = async (t: ExecutionContext, script: ModelTurn[]): Promise<TurnKit> => {
  const k = await liveKit(t, script);
  const listed = (await k.s.get('/api/supervisors')).body as { id: string; key: string }[];
  const key = listed.find((x) => x.id === k.global)!.key;
  const logs: string[] = [];
  const harnesses = supervisorHarnesses(k.s.service.core.harnesses);
  const deps: SupervisorTurnDeps = {
    home: k.s.home,
    harness: (name) => harnesses[name],
    endpoint: (anyKey) => ({ url: supervisorEndpointUrl(k.s.url, anyKey), token: ensureToken(k.s.home) }),
    watchdogMs: () => 120_000,
    onLog: (_id, text) => void logs.push(text),
  };
  return { ...k, key, deps, logs };
};
