import '../helpers/env.js';
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { STRICT, testServer, type TestServer } from '../helpers/server.js';
import { control, detail, startRun, untilStanding } from '../helpers/steer.js';
import { setRunCap } from '../helpers/http-kit.js';
import { TWO, loopHost, notifyCalls, recordNotifications, spendTheCycle } from '../helpers/pr-cycle-limit.js';

// Issue 29, part 2: a run svc paused for something only a person can settle (its budget, a harness
// that cannot start, the pull request loop's cycle limit) needs that person. The notification
// command runs once for each, with the kind `paused` and the pause's reason; a run a person paused
// runs nothing. The command ran 0 times after PullRequestLoopLimitReached then RunPaused.

const recording = (s: TestServer): Promise<string> => recordNotifications(s, ['question', 'gate', 'failed', 'card', 'paused']);
const calls = notifyCalls;

test('a budget pause and a harness problem each run the command once, kind paused, with the reason; a person\'s pause runs nothing', async (t) => {
  t.timeout(120_000);
  const s = await testServer({ workflows: { two: TWO, strict: STRICT } });
  t.teardown(() => s.close());
  const out = await recording(s);
  await setRunCap(s, 10);

  const spent = await startRun(s, { goal: 'Spend [cost:2]', workflow: 'two', title: 'Over budget', budgetUsd: 1 });
  await untilStanding(s, spent, 'Paused');
  const [budget] = await eventually(() => calls(out), (c) => c.length === 1);
  t.like(budget, { kind: 'paused', runId: spent, title: 'Over budget', reason: 'budget: spent $2.00 of $1.00 budget' });

  const broken = await startRun(s, { goal: 'Work [nocli:claude]', workflow: 'two', title: 'No CLI' });
  await untilStanding(s, broken, 'Paused');
  const two = await eventually(() => calls(out), (c) => c.length === 2);
  t.like(two[1], { kind: 'paused', runId: broken, title: 'No CLI' });
  t.regex(two[1].reason, /^harness problem: claude is not installed/);

  const held = await startRun(s, { goal: 'Wait [sleep:60000]', workflow: 'two', title: 'Held by me' });
  await untilStanding(s, held, 'Running');
  await control(s, held, 'Pause');
  await untilStanding(s, held, 'Paused');
  // a later need of another run is told after it: nothing came for the pause in between
  const failing = await startRun(s, { goal: 'Then fail [fail]', workflow: 'strict', title: 'Fails' });
  await eventually(() => calls(out), (c) => c.some((x) => x.runId === failing));
  t.deepEqual(calls(out).map((c) => [c.kind, c.runId]), [['paused', spent], ['paused', broken], ['failed', failing]]);
  t.is((await detail(s, held)).standing, 'Paused');
});

test('the pull request loop\'s cycle limit runs the command once, kind paused, with the limit\'s reason', async (t) => {
  t.timeout(180_000);
  const host = await loopHost();
  t.teardown(() => host.close());
  const s = host.server;
  const out = await recording(s);

  const runId = await startRun(s, { goal: 'Add the feature [write:feature.txt=done]', title: 'Loop', workflow: 'loop' });
  const number = (await untilStanding(s, runId, 'Waiting', 60_000)).pullRequestLoop.number as number;
  await spendTheCycle(host, runId, number);
  await untilStanding(s, runId, 'Paused', 60_000);
  const [call] = await eventually(() => calls(out), (c) => c.length >= 1, 30_000);
  t.like(call, { kind: 'paused', runId, title: 'Loop' });
  t.regex(call.reason, /^the pull request loop used its 1 cycle\(s\) and pull request #\d+ has checks failing \(test\)/);
  // once: reading the pull request again changes nothing
  await s.post(`/api/runs/${runId}/pull-request/check`, {}).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 500));
  t.is(calls(out).length, 1);
});
