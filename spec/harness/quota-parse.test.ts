// Reading a quota failure's evidence and reset time from each CLI's own words and headers.
import test from 'ava';
import { classifyStatus, classifyText } from '../../lib/harness/classify.js';
import { quotaOf, resetFromHeaders, resetFromText, resetFromValue, withQuota } from '../../lib/harness/quota.js';
import { localZoneOf } from '../../lib/harness/quota-clock.js';

const NOW = new Date('2026-11-24T10:20:00.000Z');

// codex 0.169's own words (measured against the scripted model server: a 429 whose body is
// {"error":{"type":"usage_limit_reached","resets_at":<epoch s>}}); it reads no resets_in_seconds
const codexSays = (when: string) =>
  `You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again ${when}.`;

const TEXT: readonly (readonly [string, string, string | undefined, string?])[] = [
  // claude, older: the epoch seconds after a bar
  ['claude epoch', 'API Error: Request rejected (429) · Claude AI usage limit reached|1795567200', '2026-11-25T00:40:00.000Z'],
  // claude, newer: a time of day and its zone
  ['claude resets pm with zone', "You've hit your limit · resets 3pm (Europe/Berlin)", '2026-11-24T14:00:00.000Z'],
  ['claude session limit, am, minutes', "You've hit your session limit · resets 12:50am (America/Los_Angeles)", '2026-11-25T08:50:00.000Z'],
  ['claude limit reached, zone', 'Limit reached · resets 11:30am (Asia/Calcutta)', '2026-11-25T06:00:00.000Z'],
  ['claude reset at, zone', 'Claude usage limit reached. Your limit will reset at 9am (America/Chicago).', '2026-11-24T15:00:00.000Z'],
  ['claude time already past today: tomorrow', 'usage limit reached · resets 10am (UTC)', '2026-11-25T10:00:00.000Z'],
  ['claude no zone: UTC', 'usage limit reached · resets 2:05pm', '2026-11-24T14:05:00.000Z'],
  // codex: its local wall clock cut to the minute (the reset lies in it: the wait ends with that minute)
  ['codex try again at', "You've hit your usage limit. Upgrade to Pro, or try again at 3:05 PM.", '2026-11-24T15:06:00.000Z'],
  ['codex real, same day, UTC', codexSays('at 1:36 PM'), '2026-11-24T13:37:00.000Z', 'UTC'],
  ['codex real, TZ=America/New_York', codexSays('at 8:36 AM'), '2026-11-24T13:37:00.000Z', 'America/New_York'],
  ['codex real, TZ=Asia/Kolkata', codexSays('at 4:14 PM'), '2026-11-24T10:45:00.000Z', 'Asia/Kolkata'],
  ['codex real, another day', codexSays('at Nov 27th, 2026 6:34 AM'), '2026-11-27T06:35:00.000Z', 'UTC'],
  ['codex real, another day, New York', codexSays('at Nov 25th, 2026 11:47 PM'), '2026-11-26T04:48:00.000Z', 'America/New_York'],
  ['codex, the minute now running', codexSays('at 10:20 AM'), '2026-11-24T10:21:00.000Z', 'UTC'],
  ['codex, a time already gone is no reset', codexSays('at 9:35 AM'), undefined, 'UTC'],
  ['codex real, no resets_at', codexSays('later'), undefined, 'UTC'],
  ['codex try again in', "You've hit your usage limit. Try again in 5 minutes.", '2026-11-24T10:25:00.000Z'],
  // no time named
  ['claude no reset', "API Error: Request rejected (429) · You've hit your usage limit.", undefined],
  ['codex no reset', 'Quota exceeded. Check your plan and billing details.', undefined],
  ['a bare number is no time of day', 'rate limit: resets 5 requests', undefined],
];

for (const [name, text, want, zone] of TEXT) {
  test(`reset from text: ${name}`, (t) => t.is(resetFromText(text, NOW, zone), want));
}

test('the zone codex writes in: its TZ, else this machine\'s', (t) => {
  t.is(localZoneOf({ TZ: 'America/New_York' }), 'America/New_York');
  t.is(localZoneOf({ TZ: ':Asia/Kolkata' }), 'Asia/Kolkata');
  t.is(localZoneOf({ TZ: 'Not/AZone' }), Intl.DateTimeFormat().resolvedOptions().timeZone);
  t.is(localZoneOf({}), Intl.DateTimeFormat().resolvedOptions().timeZone);
});

const HEADERS: readonly (readonly [string, Record<string, string>, string | undefined])[] = [
  ['anthropic unified reset (epoch seconds)', { 'anthropic-ratelimit-unified-reset': '1795567200' }, '2026-11-25T00:40:00.000Z'],
  ['anthropic request reset (RFC 3339)', { 'anthropic-ratelimit-requests-reset': '2026-11-24T10:21:00Z' }, '2026-11-24T10:21:00.000Z'],
  ['retry-after seconds', { 'retry-after': '90' }, '2026-11-24T10:21:30.000Z'],
  ['retry-after HTTP date', { 'retry-after': 'Tue, 24 Nov 2026 11:00:00 GMT' }, '2026-11-24T11:00:00.000Z'],
  ['retry-after-ms', { 'retry-after-ms': '1500' }, '2026-11-24T10:20:01.500Z'],
  ['openai x-ratelimit-reset durations: the latest', { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s' }, '2026-11-24T10:26:00.000Z'],
  ['the latest of several limits', { 'retry-after': '60', 'anthropic-ratelimit-tokens-reset': '2026-11-24T12:00:00Z' }, '2026-11-24T12:00:00.000Z'],
  ['no reset header', { 'content-type': 'application/json' }, undefined],
];

for (const [name, headers, want] of HEADERS) {
  test(`reset from headers: ${name}`, (t) => t.is(resetFromHeaders(headers, NOW), want));
}

test('reset from a value: epoch seconds, milliseconds, ISO; nonsense is none', (t) => {
  t.is(resetFromValue(1795567200), '2026-11-25T00:40:00.000Z');
  t.is(resetFromValue(1795567200000), '2026-11-25T00:40:00.000Z');
  t.is(resetFromValue('2026-11-24T12:00:00Z'), '2026-11-24T12:00:00.000Z');
  t.is(resetFromValue('soon'), undefined);
  t.is(resetFromValue(undefined), undefined);
});

test('quotaOf: a value (rate_limit_event resetsAt) beats headers, headers beat words; evidence is capped raw text', (t) => {
  const words = 'usage limit reached · resets 3pm (UTC)';
  t.deepEqual(quotaOf(words, NOW, { resetsAt: 1795567200, headers: { 'retry-after': '60' } }), { resetsAt: '2026-11-25T00:40:00.000Z', evidence: `${words} [retry-after: 60]` });
  t.deepEqual(quotaOf(words, NOW, { headers: { 'retry-after': '60' } }), { resetsAt: '2026-11-24T10:21:00.000Z', evidence: `${words} [retry-after: 60]` });
  t.deepEqual(quotaOf(words, NOW), { resetsAt: '2026-11-24T15:00:00.000Z', evidence: words });
  t.deepEqual(quotaOf('Quota exceeded', NOW), { evidence: 'Quota exceeded' });
  t.true(quotaOf('x'.repeat(5000), NOW).evidence.length <= 1000);
});

// opencode 1.18's error line for a 429 (measured): the provider's headers ride along
const OPENCODE_429 = {
  message: 'APIError: Number of request tokens has exceeded your per-minute rate limit',
  headers: { 'anthropic-ratelimit-tokens-reset': '2026-11-24T11:20:00.000Z', connection: 'keep-alive', 'content-type': 'application/json', date: 'Tue, 24 Nov 2026 10:20:00 GMT', 'keep-alive': 'timeout=5', 'retry-after': '0', 'transfer-encoding': 'chunked' },
};

test('quotaOf: the headers that named the reset are part of the evidence', (t) => {
  t.deepEqual(quotaOf(OPENCODE_429.message, NOW, { headers: OPENCODE_429.headers }), {
    resetsAt: '2026-11-24T11:20:00.000Z',
    evidence: `${OPENCODE_429.message} [anthropic-ratelimit-tokens-reset: 2026-11-24T11:20:00.000Z; retry-after: 0]`,
  });
  t.deepEqual(quotaOf('APIError: rate limited', NOW, { headers: { 'content-type': 'application/json' } }), { evidence: 'APIError: rate limited' });
});

test('quotaOf: codex\'s wall clock is read in the zone given', (t) => {
  t.is(quotaOf(codexSays('at 8:36 AM'), NOW, { zone: 'America/New_York' }).resetsAt, '2026-11-24T13:37:00.000Z');
});

test('withQuota: only a quota failure gains the quota field', (t) => {
  const failed = { outcome: 'failure' as const, failure: 'quota' as const, summary: "You've hit your limit · resets 3pm (UTC)" };
  t.deepEqual(withQuota(failed, failed.summary, NOW).quota, { resetsAt: '2026-11-24T15:00:00.000Z', evidence: failed.summary });
  const other = { outcome: 'failure' as const, failure: 'error' as const, summary: 'resets 3pm' };
  t.is(withQuota(other, other.summary, NOW).quota, undefined);
});

test('classify: each CLI\'s quota words and a 429 are quota', (t) => {
  const codexReal = [codexSays('at 1:36 PM'), 'exceeded retry limit, last status: 429 Too Many Requests', 'Quota exceeded. Check your plan and billing details.'];
  for (const text of ["You've hit your limit · resets 3pm", 'Claude AI usage limit reached|1795567200', "You've hit your usage limit. Try again in 5 minutes.", 'Quota exceeded', ...codexReal]) t.is(classifyText(text), 'quota', text);
  t.is(classifyText('exceeded retry limit, last status: 500 Internal Server Error'), 'error');
  t.is(classifyStatus(429), 'quota');
});
