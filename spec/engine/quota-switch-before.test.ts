import '../helpers/env.js';
import test from 'ava';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { STRICT, testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// A run that can use another ready harness is not held back by its harness's quota window: it
// leaves the queue and switches to its fallback before its first turn, never starting one on the
// limited harness. (The scripted harness answers the goal [quota] with a quota failure.)

const FALLBACK = STRICT.replace('digraph strict {', 'digraph fallback {\n  fallbackHarnesses="opencode, codex"');

test('a queued run on a limited harness with a ready fallback starts, and switches before its turn', async (t) => {
  const clock = new ManualClock(new Date('2030-01-01T10:00:00.000Z'));
  const s = await testServer({ workflows: { strict: STRICT, fallback: FALLBACK }, clock });
  t.teardown(() => s.close());
  const limiter = await startRun(s, { goal: '[quota]', workflow: 'strict', harness: 'claude' });
  await untilStanding(s, limiter, 'Waiting');

  const runId = await startRun(s, { goal: 'plain work', workflow: 'fallback', harness: 'claude' });
  const done = await untilStanding(s, runId, 'Succeeded');
  t.is(done.outcome, 'success');
  const events = await history(s, runId);
  t.false(events.some((e) => e.type === 'QueueHeld'), 'not held: it could use another ready harness');
  t.like(events.find((e) => e.type === 'HarnessChanged').data, { harness: 'opencode', reason: 'quota', by: { kind: 'engine' } });
  t.deepEqual(events.filter((e) => e.type === 'StepStarted').map((e) => e.data.harness), ['opencode'], 'no turn on the limited claude');
});
