import '../helpers/env.js';
import test from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { testServer } from '../helpers/server.js';
import { untilStanding } from '../helpers/steer.js';

// Issue 33: a NUL byte in a run's goal (stored before the doors refused it, or written by a rule
// from what a code host sent) reached spawn, which threw out of the engine's microtask and ended
// the server. Now the step fails with the reason, and the server goes on with its other runs.

const COMMAND = `digraph c {
  start [kind=start]
  check [kind=command, command="echo \\"$SVC_GOAL\\""]
  done  [kind=exit]
  start -> check
  check -> done [condition="outcome=success"]
}`;

const TABLE: readonly [string, string, Record<string, string>, RegExp][] = [
  ['a command step (the goal in its environment)', 'command', {}, /command failed to run: .*null bytes/],
];

for (const [name, workflow, more, summary] of TABLE) {
  test.serial(`a NUL byte in a stored goal fails ${name}, never the server`, async (t) => {
    t.timeout(120_000);
    const s = await testServer({ workflows: { command: COMMAND } });
    t.teardown(() => s.close());
    // below the doors, as a run made before they refused it
    const made = s.service.startRun({ project: s.projectId, goal: 'g\u0000h [report:success]', workflow, ...more }, { kind: 'person' });
    if (isLeft(made)) return t.fail(JSON.stringify(made.left));
    const runId = made.right.runId;
    await untilStanding(s, runId, 'Failed');
    const events = (await s.get(`/api/runs/${runId}/history?pageSize=200`)).body.events as any[];
    t.regex(events.find((e) => e.type === 'StepFailed')?.data.summary ?? JSON.stringify(events.map((e) => e.type)), summary);
    // and the server goes on: another run succeeds
    const next = await s.post('/api/runs', { project: s.projectId, goal: 'fine [report:success]', workflow });
    t.is(next.status, 200);
    await untilStanding(s, next.body.runId, 'Succeeded');
  });
}
