import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import type { HarnessName } from '../../domain/workflow.js';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';
import { httpError, say, type ModelTurn } from '../fixtures/model-server/script.js';
import { harnessEvents, harnessRow, realCliOnClock, startOn, untilStandingOrLog } from '../helpers/quota-run.js';
import { history } from '../helpers/steer.js';

// Quota windows with the real codex and opencode CLIs (docs/usage.md "Quota windows"): the
// scripted model refuses the first turn with a 429 the way each provider does; the run waits
// until the reset the CLI surfaced (on a clock the test moves), the harnesses journal records
// the window with the CLI's raw words, and when the clock passes the reset the step runs again
// in the same session and the model is really asked again. One at a time: they share process.env.

const GOAL = 'Say hello from the quota test.';

// OpenAI's answer to a subscriber out of quota: codex reads `resets_at` (epoch seconds) and
// prints it as its local time of day, cut to the minute. `request_max_retries = 0` in the test
// config (spec/harness/sandbox.ts) keeps it from retrying; it does not retry this one anyway.
const codexUsageLimit = (reset: Date): ModelTurn =>
  httpError(429, 'The usage limit has been reached', 'usage_limit_reached', {}, { plan_type: 'plus', resets_at: Math.floor(reset.getTime() / 1000) });

// Anthropic's rate-limit 429 to opencode: opencode itself retries five times, each after
// retry-after (0 here, or the test would sleep it out), then prints the error with the headers.
const OPENCODE_TRIES = 6;
const opencodeRateLimit = (reset: Date): ModelTurn =>
  httpError(429, 'Number of request tokens has exceeded your per-minute rate limit', 'rate_limit_error', {
    'retry-after': '0',
    'anthropic-ratelimit-tokens-reset': reset.toISOString(),
  });

interface Case {
  readonly harness: HarnessName;
  readonly refusals: (reset: Date) => ModelTurn[];
  /** when the run's wait ends, for a reset at `reset` */
  readonly waitEnds: (reset: Date) => Date;
  /** the CLI's own words, as recorded in the evidence */
  readonly words: RegExp;
}

const CASES: readonly Case[] = [
  {
    harness: 'codex',
    refusals: (reset) => [codexUsageLimit(reset)],
    // codex names the minute: the wait ends when that minute does
    waitEnds: (reset) => new Date(Math.floor(reset.getTime() / 60_000) * 60_000 + 60_000),
    // a reset on a later local day (the test ran near midnight) names the date too: "Nov 28th, 2026 12:25 AM"
    words: /You’ve hit your usage limit\. .* try again at (?:[A-Z][a-z]{2} \d{1,2}(?:st|nd|rd|th), \d{4} )?\d{1,2}:\d{2} [AP]M\./,
  },
  {
    harness: 'opencode',
    refusals: (reset) => Array.from({ length: OPENCODE_TRIES }, () => opencodeRateLimit(reset)),
    waitEnds: (reset) => reset,
    words: /APIError: Number of request tokens has exceeded your per-minute rate limit \[.*anthropic-ratelimit-tokens-reset: \S+.*\]/,
  },
];

const outOfQuota = async (t: ExecutionContext, c: Case) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  // 30 s past a whole minute, an hour on: codex's cut to the minute shows in the wait's end
  const reset = new Date(Math.floor(clock.now().getTime() / 60_000) * 60_000 + 3_600_000 + 30_000);
  const until = c.waitEnds(reset).toISOString();
  const { s, model } = await realCliOnClock(t, c.harness, clock, [...c.refusals(reset), say(`Done on ${c.harness}.`)]);

  const runId = await startOn(s, GOAL, c.harness);
  const waiting = await untilStandingOrLog(s, runId, 'Waiting', 150_000);
  t.is(waiting.waitEndsAt, until, 'the wait ends when the CLI said the window resets');
  t.is(waiting.waitingOn.harness, c.harness);
  t.regex(waiting.waitingOn.evidence, c.words);
  const events = await history(s, runId);
  t.like(events.find((e) => e.type === 'QuotaHit')?.data, { harness: c.harness, resetsAt: until, attempt: 1 });
  t.false(events.some((e) => e.type === 'StepFailed'), 'out of quota is not the agent failing');

  const limited = harnessEvents(s).filter((e) => e.type === 'HarnessLimited');
  t.is(limited.length, 1);
  t.like(limited[0]!.data, { harness: c.harness, until, runId });
  t.regex(limited[0]!.data.evidence, c.words, 'the raw evidence is recorded');
  t.like(await harnessRow(s, c.harness), { limitedUntil: until });
  t.is((await harnessRow(s, 'claude')).limitedUntil, null, 'only this harness is limited');
  const asked = model.scriptedBodies().length;
  t.is(asked, c.refusals(reset).length, 'the model was asked once per try the CLI makes, no more');

  // the window resets: the step runs again in the same session, and the model is asked again
  clock.set(new Date(Date.parse(until) + 1000));
  const done = await untilStandingOrLog(s, runId, 'Succeeded', 150_000);
  t.is(done.outcome, 'success');
  const after = await history(s, runId);
  t.true(after.some((e) => e.type === 'QuotaWaitEnded'));
  const starts = after.filter((e) => e.type === 'StepStarted');
  t.is(starts.length, 2);
  const session = after.find((e) => e.type === 'StepSessionStarted')?.data.sessionId;
  t.truthy(session, 'the refused turn had started a session');
  t.is(starts[1].data.resumeSession, session, 'the same session is resumed');
  const again = model.scriptedBodies().slice(asked).map((b) => JSON.stringify(b));
  t.is(again.length, 1, 'the model was asked again, once');
  t.true(again[0]!.includes(GOAL), 'the resumed session carries the goal of the refused turn');
  t.like(await harnessRow(s, c.harness), { limitedUntil: null });
};

for (const c of CASES) {
  test.serial(`${c.harness} out of quota: the run waits until the reset the CLI surfaced, then the same session resumes`, (t) => outOfQuota(t, c));
}

// OpenAI's rate-limit 429 (not the usage limit): codex surfaces neither the body nor the reset
// headers, only "exceeded retry limit, last status: 429 Too Many Requests" (without retry-after it
// does not retry at all). It is still quota, not the agent failing: the run backs off a minute.
test.serial('codex rate-limited by a bare 429: quota with a minute of backoff, not the agent failing, then it runs again', async (t) => {
  t.timeout(400_000);
  const clock = new ManualClock(new Date());
  const rateLimited = httpError(429, 'Rate limit reached for gpt-5.5 on tokens per min (TPM).', 'rate_limit_exceeded', { 'x-ratelimit-reset-tokens': '6m0s' });
  const { s, model } = await realCliOnClock(t, 'codex', clock, [rateLimited, say('Done on codex.')]);

  const runId = await startOn(s, GOAL, 'codex');
  const waiting = await untilStandingOrLog(s, runId, 'Waiting', 150_000);
  const backoff = new Date(clock.now().getTime() + 60_000).toISOString();
  t.is(waiting.waitEndsAt, backoff, 'no reset surfaced: one minute of backoff');
  t.is(waiting.waitingOn.evidence, 'exceeded retry limit, last status: 429 Too Many Requests');
  t.false((await history(s, runId)).some((e) => e.type === 'StepFailed'));
  t.like(harnessEvents(s).find((e) => e.type === 'HarnessLimited')?.data, { harness: 'codex', until: backoff, evidence: 'exceeded retry limit, last status: 429 Too Many Requests' });

  clock.set(new Date(Date.parse(backoff) + 1000));
  await untilStandingOrLog(s, runId, 'Succeeded', 150_000);
  t.is(model.scriptedBodies().length, 2, 'the model was asked again after the backoff');
});
