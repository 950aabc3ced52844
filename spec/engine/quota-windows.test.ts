import { eventually } from '../helpers/env.js';
import test from 'ava';
import { join } from 'node:path';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { httpError, say, writeFile } from '../fixtures/model-server/script.js';
import { pointCliAt, REAL, realCliEnv } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { detail, history, untilStanding } from '../helpers/steer.js';
import { harnessRow, startOn, untilStandingOrLog } from '../helpers/quota-run.js';

// Quota windows with the real CLIs (docs/usage.md): the scripted model server refuses claude with
// Anthropic's usage-limit 429, whose message names the reset ("Claude AI usage limit reached|<epoch>",
// which claude prints as it is); the run waits until then on a clock the test moves, then resumes
// the same claude session. With a fallback listed, the run switches to the real codex instead.
// The tests share process.env (the CLIs' homes and model URLs): they run one at a time.

const limitUntil = (reset: Date) => httpError(429, `Claude AI usage limit reached|${Math.floor(reset.getTime() / 1000)}`, 'rate_limit_error', {
  // what Anthropic sends a subscriber out of quota; a retry-after this long makes claude give up at
  // once (a short one, or none, and it retries up to ten times with backoff)
  'anthropic-ratelimit-unified-status': 'rejected',
  'anthropic-ratelimit-unified-reset': String(Math.floor(reset.getTime() / 1000)),
  'retry-after': '3600',
});

const bothClis = async (claudeScript: Parameters<typeof startModelServer>[0], codexScript: Parameters<typeof startModelServer>[0]) => {
  const cli = realCliEnv('claude');
  process.env['SVC_HARNESS_BIN_CODEX'] = join(process.cwd(), 'node_modules', '.bin', 'codex');
  const claude = await startModelServer(claudeScript);
  const codex = await startModelServer(codexScript);
  pointCliAt('claude', cli, claude.url);
  pointCliAt('codex', cli, codex.url);
  return { claude, codex };
};

test.serial('claude out of quota: the run waits until the reset, the queue holds claude runs and starts codex ones, then the same session resumes', async (t) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  const reset = new Date(Math.ceil((clock.now().getTime() + 3_600_000) / 1000) * 1000);
  // the server starts after the CLIs are pointed at the model servers: it checks them at start
  const models = await bothClis([writeFile('hello.txt', 'hello\n', 'Writing the file.'), limitUntil(reset)], [say('Done on codex.')]);
  const s = await testServer({ workflows: { real: REAL }, clock });
  t.teardown(async () => (await s.close(), await models.claude.close(), await models.codex.close()));

  const a = await startOn(s, 'Write hello.txt.', 'claude');
  const waiting = await untilStandingOrLog(s, a, 'Waiting', 40_000);
  t.is(waiting.waitEndsAt, reset.toISOString(), 'the wait ends when claude said the window resets');
  t.is(waiting.waitingOn.harness, 'claude');
  t.regex(waiting.waitingOn.evidence, /usage limit reached/);
  const hit = (await history(s, a)).find((e) => e.type === 'QuotaHit');
  t.is(hit.data.resetsAt, reset.toISOString());
  t.is(hit.data.attempt, 1);
  t.false((await history(s, a)).some((e) => e.type === 'StepFailed'), 'out of quota is not the agent failing');
  t.is((await harnessRow(s, 'claude')).limitedUntil, reset.toISOString());
  t.is((await harnessRow(s, 'codex')).limitedUntil, null);

  // a run on claude is held in the queue (it says why); one on codex starts and finishes
  const b = await startOn(s, 'A second claude run.', 'claude');
  const c = await startOn(s, 'A codex run.', 'codex');
  await untilStanding(s, c, 'Succeeded', 150_000);
  const held = await detail(s, b);
  t.is(held.standing, 'Queued');
  t.deepEqual(held.waitingOn, { harness: 'claude', until: reset.toISOString() });
  const board = (await s.get('/api/board')).body as any[];
  t.deepEqual(board.find((r) => r.runId === b)?.waitingOn, { harness: 'claude', until: reset.toISOString() }, 'the board says why it waits');
  t.is((await detail(s, a)).standing, 'Waiting', 'the wait is on the clock, not on the wall');

  // the window resets: the step runs again in the same claude session, and the held run starts
  clock.set(new Date(reset.getTime() + 1000));
  await untilStanding(s, a, 'Succeeded', 150_000);
  const events = await history(s, a);
  const session = events.find((e) => e.type === 'StepSessionStarted').data.sessionId;
  const starts = events.filter((e) => e.type === 'StepStarted');
  t.is(starts.length, 2);
  t.is(starts[1].data.resumeSession, session, 'the same session is resumed');
  t.true(events.some((e) => e.type === 'QuotaWaitEnded'));
  const resumed = models.claude.scriptedBodies().map((b) => JSON.stringify(b)).find((b) => b.includes('previous turn on this step was interrupted'));
  t.truthy(resumed, 'claude was told to continue where it left off');
  t.true(resumed!.includes('hello.txt'), 'the model server sees the earlier turns in the next request');
  await eventually(() => detail(s, b), (d) => d.standing !== 'Queued', 150_000);
});

test.serial('claude out of quota with codex listed as a fallback: the run switches to codex and goes on', async (t) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  const reset = new Date(Math.ceil((clock.now().getTime() + 3_600_000) / 1000) * 1000);
  const models = await bothClis([limitUntil(reset)], [say('Done on codex.')]);
  const fallback = REAL.replace('digraph real {', 'digraph fallback {\n  fallbackHarnesses="codex"');
  const s = await testServer({ workflows: { fallback }, clock });
  t.teardown(async () => (await s.close(), await models.claude.close(), await models.codex.close()));

  const a = await startOn(s, 'Write hello.txt.', 'claude', 'fallback');
  const done = await untilStanding(s, a, 'Succeeded', 150_000);
  t.is(done.outcome, 'success');
  const events = await history(s, a);
  const hit = events.find((e) => e.type === 'QuotaHit');
  t.is(hit.data.harness, 'claude');
  t.is(hit.data.waitEndsAt, undefined, 'no wait: a fallback was ready');
  t.like(events.find((e) => e.type === 'HarnessChanged').data, { harness: 'codex', reason: 'quota', by: { kind: 'engine' } });
  t.deepEqual(events.filter((e) => e.type === 'StepStarted').map((e) => e.data.harness), ['claude', 'codex']);
  t.is(models.codex.scriptedBodies().length, 1, 'codex took the step');
  t.is((await harnessRow(s, 'claude')).limitedUntil, reset.toISOString(), 'claude stays limited until its reset');
});
