import '../helpers/env.js';
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, repoRoot, tempDir, writtenJsonLines } from '../helpers/env.js';
import { GATE_ONLY, testServer } from '../helpers/server.js';
import { control, startRun, untilStanding } from '../helpers/steer.js';

// The notification command: configured in Settings as an argv (never a shell string), run by the
// server for each "needs you" event of the kinds chosen, with the event as JSON on stdin and
// SVC_EVENT_KIND, SVC_RUN_ID, SVC_RUN_URL in its environment; once per event, across restarts;
// a failure is shown in Settings and the run goes on.

const FAILS = `digraph fails {
  start [kind=start]
  check [kind=command, command="exit 3"]
  done  [kind=exit]
  start -> check
  check -> done [condition="outcome=success"]
}`;
const RECORD = join(repoRoot, 'spec/fixtures/notify/record.mjs');
const FAIL = join(repoRoot, 'spec/fixtures/notify/fail.mjs');
const TITLE = `"; rm -rf / $(touch pwned) \`id\` <b>`;

const lines = writtenJsonLines;
const setCommand = (s: { send: (m: string, p: string, b?: string) => Promise<{ status: number; body: any }> }, argv: string[], kinds: string[]) =>
  s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'NotifyCommand', argv, kinds }));

test('a gate and a failure run the command with the event as JSON on stdin; once per event, also after a restart', async (t) => {
  t.timeout(120_000);
  const out = join(tempDir('svc-notify-'), 'calls.jsonl');
  let s = await testServer({ workflows: { gate: GATE_ONLY, fails: FAILS } });
  const home = s.home;
  t.teardown(() => s.close());
  t.is((await setCommand(s, [process.execPath, RECORD, out, 'one arg; with $(spaces)'], ['gate', 'failed'])).status, 200);

  const gated = await startRun(s, { goal: 'wait for me', workflow: 'gate', title: TITLE });
  const [call] = await eventually(() => lines(out), (l) => l.length === 1);
  const event = JSON.parse(call.stdin);
  t.deepEqual(Object.keys(event).sort(), ['at', 'kind', 'project', 'reason', 'runId', 'title', 'url']);
  t.like(event, { kind: 'gate', runId: gated, title: TITLE, project: 'demo', url: `${s.url}/runs/${gated}`, reason: 'gate review: waiting for Resume' });
  t.like(call.env, { SVC_EVENT_KIND: 'gate', SVC_RUN_ID: gated, SVC_RUN_URL: `${s.url}/runs/${gated}` });
  t.deepEqual(call.args, ['one arg; with $(spaces)'], 'argv is passed as it is: no shell splits or expands it');
  t.false(existsSync(join(s.repo, 'pwned')), 'the title is data, never run');

  const failed = await startRun(s, { goal: 'fail', workflow: 'fails', title: 'Fails' });
  await untilStanding(s, failed, 'Failed');
  const two = await eventually(() => lines(out), (l) => l.length === 2);
  t.like(JSON.parse(two[1].stdin), { kind: 'failed', runId: failed, title: 'Fails' });

  // a restart tells nothing twice: the next event is the only new call
  await s.close();
  s = await testServer({ home, workflows: { gate: GATE_ONLY, fails: FAILS } });
  const again = await startRun(s, { goal: 'fail again', workflow: 'fails', title: 'Fails again' });
  await untilStanding(s, again, 'Failed');
  const three = await eventually(() => lines(out), (l) => l.length >= 3);
  t.deepEqual(three.map((c) => JSON.parse(c.stdin).runId), [gated, failed, again]);
  t.is((await s.get('/api/settings/notify-command')).body.lastFailure, null);
});

test('a kind not chosen runs nothing; a failing command is shown in Settings and the run goes on; bad settings are 400', async (t) => {
  t.timeout(120_000);
  const out = join(tempDir('svc-notify-'), 'calls.jsonl');
  const s = await testServer({ workflows: { gate: GATE_ONLY, fails: FAILS } });
  t.teardown(() => s.close());
  t.is((await setCommand(s, [process.execPath, RECORD, out], ['failed'])).status, 200);
  const quiet = await startRun(s, { goal: 'g', workflow: 'gate', title: 'Not told' });
  await untilStanding(s, quiet, 'Paused');
  t.is((await setCommand(s, [process.execPath, FAIL], ['gate'])).status, 200);
  const gated = await startRun(s, { goal: 'g', workflow: 'gate', title: 'Told, but it fails' });
  const shown = await eventually(async () => (await s.get('/api/settings/notify-command')).body.lastFailure, (f) => f !== null);
  t.like(shown, { kind: 'gate', runId: gated });
  t.regex(shown.detail, /exited with code 2: chat server said no/);
  await control(s, gated, 'Resume');
  await untilStanding(s, gated, 'Succeeded');
  t.deepEqual(lines(out), [], 'the gate of the first run was not a chosen kind');

  for (const bad of [{ argv: 'notify-send hi', kinds: [] }, { argv: ['x'], kinds: ['email'] }, { argv: [' '], kinds: ['gate'] }, { argv: ['x'], kinds: [], shell: true }]) {
    const r = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'NotifyCommand', ...bad }));
    t.is(r.status, 400, JSON.stringify(bad));
    t.truthy(r.body.detail);
  }
  t.is((await setCommand(s, [], [])).status, 200);
  t.is((await s.get('/api/settings')).body.notifyCommand, null, 'an empty argv turns it off');
});
