import '../helpers/env.js';
import test from 'ava';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer } from '../helpers/server.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';

// Quota windows survive a restart (they are the 'harnesses' journal), and so does a quota wait: the
// restarted service still shows claude limited, re-arms the wait on its clock, and when the window
// ends runs the step again. The scripted harness answers the goal [quota] with a quota failure.

const claudeWindow = async (s: Awaited<ReturnType<typeof testServer>>) =>
  (await s.get('/api/harnesses')).body.harnesses.find((h: any) => h.name === 'claude').limitedUntil;

test('a quota window and a quota wait survive a restart; the wait ends on the clock after it', async (t) => {
  const clock = new ManualClock(new Date('2030-01-01T10:00:00.000Z'));
  const first = await testServer({ workflows: { strict: STRICT }, clock });
  const runId = await startRun(first, { goal: '[quota]', workflow: 'strict', harness: 'claude' });
  const waiting = await untilStanding(first, runId, 'Waiting');
  t.is(waiting.waitEndsAt, '2030-01-01T10:01:00.000Z', 'no reset named: one minute of backoff');
  t.is(await claudeWindow(first), waiting.waitEndsAt);
  await first.close();

  const second = await testServer({ home: first.home, repo: first.repo, workflows: { strict: STRICT }, clock });
  t.teardown(() => second.close());
  t.is(await claudeWindow(second), waiting.waitEndsAt, 'the window is read back from the journal');
  t.is((await detail(second, runId)).standing, 'Waiting');
  clock.set('2030-01-01T10:01:01.000Z');
  // the step runs again (the scripted harness refuses again: the second hit backs off two minutes)
  const again = await eventually(() => history(second, runId), (es) => es.filter((e) => e.type === 'QuotaHit').length === 2);
  t.true(again.some((e) => e.type === 'QuotaWaitEnded'));
  t.like(again.filter((e) => e.type === 'QuotaHit')[1].data, { attempt: 2, waitEndsAt: '2030-01-01T10:03:01.000Z' });
  t.is(await claudeWindow(second), '2030-01-01T10:03:01.000Z');
});
