import '../helpers/env.js';
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { httpError, say } from '../fixtures/model-server/script.js';
import { harnessEvents, realCliOnClock, setWatchdog, startOn, untilStandingOrLog } from '../helpers/quota-run.js';
import { history } from '../helpers/steer.js';

// codex and opencode wait out a provider's retry-after by themselves, printing nothing meanwhile
// (docs/usage.md "Quota windows"): a long one ends in svc's watchdog. What the CLI said last
// before going quiet was a quota error, so the turn is quota (the run waits), not a hang (the step
// failing). The watchdog is short here, yet long enough that a CLI's own silent start-up on a
// loaded machine does not trip it (opencode says nothing for seconds before its first request).
// One at a time: they share process.env.

const GOAL = 'Say hello from the quota test.';

// Anthropic's usage-limit 429 carries a retry-after as long as the window: opencode sleeps it out
// by itself, printing nothing, so the turn ends by the watchdog. The error opencode logged before
// going quiet (--print-logs) makes that quota, not a hang; its words may name the reset (here
// claude's epoch form), its headers are not logged (else the run backs off).
test.serial('opencode sleeping out a long retry-after: the watchdog\'s end is quota (until the reset its logged words name), not a hang', async (t) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  const reset = new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + 3_600_000);
  const usageLimit = httpError(429, `Claude AI usage limit reached|${reset.getTime() / 1000}`, 'rate_limit_error', {
    'retry-after': '3600',
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(reset.getTime() / 1000),
  });
  const { s, model } = await realCliOnClock(t, 'opencode', clock, [usageLimit, say('Done on opencode.')]);
  t.is(await setWatchdog(s, 60), 200);

  const runId = await startOn(s, GOAL, 'opencode');
  const waiting = await untilStandingOrLog(s, runId, 'Waiting', 200_000);
  t.is(model.scriptedBodies().length, 1, 'opencode asked once, then slept');
  t.regex(waiting.waitingOn.evidence, /^opencode went quiet retrying after: AI_APICallError: Claude AI usage limit reached\|\d+$/);
  t.false((await history(s, runId)).some((e) => e.type === 'StepFailed'), 'not the agent failing, not a hang');
  // the words name the reset (claude's epoch form): the wait ends then, as with claude itself
  t.is(waiting.waitEndsAt, reset.toISOString());
  t.like(harnessEvents(s).find((e) => e.type === 'HarnessLimited')?.data, { harness: 'opencode', until: reset.toISOString() });

  clock.set(new Date(reset.getTime() + 1000));
  await untilStandingOrLog(s, runId, 'Succeeded', 200_000);
  t.is(model.scriptedBodies().length, 2, 'the model was asked again after the reset');
});

// codex with its own default retries (no request_max_retries / stream_max_retries in its config)
// waits out a rate limit's retry-after itself: it prints "Reconnecting... 1/5 (… 429 Too Many
// Requests)" and sleeps. A long retry-after ends in the watchdog, which is quota, not a hang.
test.serial('codex sleeping out a long retry-after with its default retries: the watchdog\'s end is quota with a minute of backoff', async (t) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  const rateLimited = httpError(429, 'Rate limit reached for gpt-5.5 on requests per day (RPD).', 'rate_limit_exceeded', { 'retry-after': '3600' });
  const { s, model } = await realCliOnClock(t, 'codex', clock, [rateLimited, say('Done on codex.')]);
  // back to codex's default retries (the test config turns them off); read at the turn's spawn
  const config = join(process.env['CODEX_HOME']!, 'config.toml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/^(request|stream)_max_retries.*$/gm, ''));
  t.is(await setWatchdog(s, 30), 200);

  const runId = await startOn(s, GOAL, 'codex');
  const waiting = await untilStandingOrLog(s, runId, 'Waiting', 200_000);
  t.is(model.scriptedBodies().length, 1, 'codex asked once, then slept');
  t.is(waiting.waitingOn.evidence, 'codex went quiet retrying after: Reconnecting... 1/5 (exceeded retry limit, last status: 429 Too Many Requests)');
  t.is(waiting.waitEndsAt, new Date(clock.now().getTime() + 60_000).toISOString(), 'no reset surfaced: a minute of backoff');
  t.false((await history(s, runId)).some((e) => e.type === 'StepFailed'), 'not the agent failing, not a hang');

  clock.set(new Date(Date.parse(waiting.waitEndsAt) + 1000));
  await untilStandingOrLog(s, runId, 'Succeeded', 200_000);
  t.is(model.scriptedBodies().length, 2, 'the model was asked again after the backoff');
});
