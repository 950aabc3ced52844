import '../helpers/env.js';
import test from 'ava';
import { controlApplied, setRunCap } from '../helpers/http-kit.js';
import { testServer } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';

// The cap is decideGrantSlot's rule; the engine offers slots in queue order and reacts to a new cap
// recorded on the settings stream (no door calls into the engine).

test('under the cap, queued runs wait; raising the cap gives the next one its slot, lowering it takes none away', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  await setRunCap(s, 1);
  const first = await startRun(s, { goal: 'first [silent]', workflow: 'linear' });
  await untilStanding(s, first, 'Running');
  const second = await startRun(s, { goal: 'second [silent]', workflow: 'linear' });
  const third = await startRun(s, { goal: 'third [silent]', workflow: 'linear' });
  t.is((await detail(s, second)).standing, 'Queued');
  await setRunCap(s, 2);
  await untilStanding(s, second, 'Running');
  t.is((await detail(s, third)).standing, 'Queued', 'one more slot, one more run');
  await setRunCap(s, 1);
  t.is((await detail(s, first)).standing, 'Running', 'a lower cap stops no run');
  t.is((await detail(s, second)).standing, 'Running');
  t.is((await controlApplied(s, first, 'Abort')).body.outcome, 'Applied');
  t.is((await detail(s, third)).standing, 'Queued', 'two still hold slots over a cap of one');
  t.is((await controlApplied(s, second, 'Abort')).body.outcome, 'Applied');
  await untilStanding(s, third, 'Running');
  t.is((await controlApplied(s, third, 'Abort')).body.outcome, 'Applied');
});
