import type { ExecutionContext } from 'ava';
import type { HarnessName } from '../../domain/workflow.js';
import type { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { pointCliAt, REAL, realCliEnv } from './real-run.js';
import { testServer, type TestServer } from './server.js';
import { untilStanding } from './steer.js';

// Shared by the real-CLI quota specs: start a run on a harness, wait for its standing (with the
// run's log in the failure, since a CLI's own words are the first thing to read), and read the
// 'harnesses' journal, where the quota windows and their raw evidence are recorded.

export const startOn = async (s: TestServer, goal: string, harness: HarnessName, workflow = 'real'): Promise<string> =>
  (await s.post('/api/runs', { project: s.projectId, goal, workflow, harness, start: true })).body.runId as string;

export const untilStandingOrLog = (s: TestServer, runId: string, standing: string, timeoutMs: number) =>
  untilStanding(s, runId, standing, timeoutMs).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- run log ---\n${log}`);
  });

/** the 'harnesses' journal as recorded: { type, data } in order */
export const harnessEvents = (s: TestServer): { type: string; data: any }[] =>
  s.service.core.journal.read('harnesses').map((e) => ({ type: e.type, data: e.data }));

/** GET /api/harnesses' row for one harness */
export const harnessRow = async (s: TestServer, name: HarnessName) =>
  (await s.get('/api/harnesses')).body.harnesses.find((h: any) => h.name === name);

/**
 * The real CLI pointed at a scripted model (before the service starts: it checks the CLI at
 * start) and a service on the test's clock with the one-step REAL workflow.
 */
export const realCliOnClock = async (t: ExecutionContext, harness: HarnessName, clock: ManualClock, script: readonly ModelTurn[]) => {
  const cli = realCliEnv(harness);
  const model = await startModelServer(script);
  t.teardown(() => model.close());
  pointCliAt(harness, cli, model.url);
  const s = await testServer({ workflows: { real: REAL }, clock });
  t.teardown(() => s.close());
  return { s, model };
};

/** the silence watchdog, short enough for a test (10 s at the least) */
export const setWatchdog = async (s: TestServer, seconds: number): Promise<number> =>
  (await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'WatchdogTimeout', seconds }))).status;
