import '../helpers/env.js';
import test from 'ava';
import { TWO_STEPS } from '../mcp/helpers/real.js';
import { testServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';
import { detail, history, startRun, untilStanding } from '../helpers/steer.js';

// A fork's link lives only in the fork's journal (one append, whole or absent), yet the source's
// detail lists it: the source's push stream (`?run=<source>`) sends the detail again when a fork is
// made, under the id it already had, and appends nothing to the source's journal for it.

test('a fork made of a run pushes the run\'s detail with the fork, without an event in the run\'s journal', async (t) => {
  const s = await testServer({ workflows: { two: TWO_STEPS } });
  t.teardown(() => s.close());
  const source = await startRun(s, { goal: '[write:one.txt=one][report:success]', workflow: 'two' });
  await untilStanding(s, source, 'Succeeded');
  const { at } = (await detail(s, source)).forkable[0];
  const before = (await history(s, source)).length;
  const sse = await openSse(`${s.url}/api/events?run=${source}`);
  t.teardown(() => sse.close());
  const [opened] = await sse.until((f) => f.length >= 1);
  t.is(opened!.data.run.forks, undefined, 'no fork yet');

  const fork = (await s.post(`/api/runs/${source}/forks`, { at })).body.runId as string;
  const frames = await sse.until((f) => f.some((x) => x.data?.run?.forks?.includes(fork)));
  const told = frames.find((x) => x.data?.run?.forks?.includes(fork))!;
  t.is(told.event, 'run');
  t.is(told.id, opened!.id, 'the same place in the source\'s stream: nothing was appended to it');
  t.deepEqual(told.data.history, []);
  t.is((await history(s, source)).length, before, 'the source\'s journal is unchanged');
  // a watcher that comes later (or resumes) starts from the detail as it is now
  const later = await openSse(`${s.url}/api/events?run=${source}`, { 'last-event-id': opened!.id! });
  t.teardown(() => later.close());
  const [first] = await later.until((f) => f.length >= 1);
  t.deepEqual(first!.data.run.forks, [fork]);
});
