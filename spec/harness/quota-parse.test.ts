// Reading a quota failure's evidence and reset time from each CLI's own words and headers.
import test from 'ava';
import { classifyStatus, classifyText } from '../../lib/harness/classify.js';
import { quotaOf, resetFromHeaders, resetFromText, resetFromValue, withQuota } from '../../lib/harness/quota.js';

const NOW = new Date('2026-11-24T10:20:00.000Z');

const TEXT: readonly (readonly [string, string, string | undefined])[] = [
  // claude, older: the epoch seconds after a bar
  ['claude epoch', 'API Error: Request rejected (429) · Claude AI usage limit reached|1795567200', '2026-11-25T00:40:00.000Z'],
  // claude, newer: a time of day and its zone
  ['claude resets pm with zone', "You've hit your limit · resets 3pm (Europe/Berlin)", '2026-11-24T14:00:00.000Z'],
  ['claude session limit, am, minutes', "You've hit your session limit · resets 12:50am (America/Los_Angeles)", '2026-11-25T08:50:00.000Z'],
  ['claude limit reached, zone', 'Limit reached · resets 11:30am (Asia/Calcutta)', '2026-11-25T06:00:00.000Z'],
  ['claude reset at, zone', 'Claude usage limit reached. Your limit will reset at 9am (America/Chicago).', '2026-11-24T15:00:00.000Z'],
  ['claude time already past today: tomorrow', 'usage limit reached · resets 10am (UTC)', '2026-11-25T10:00:00.000Z'],
  ['claude no zone: UTC', 'usage limit reached · resets 2:05pm', '2026-11-24T14:05:00.000Z'],
  // codex
  ['codex try again at', "You've hit your usage limit. Upgrade to Pro, or try again at 3:05 PM.", '2026-11-24T15:05:00.000Z'],
  ['codex try again in', "You've hit your usage limit. Try again in 5 minutes.", '2026-11-24T10:25:00.000Z'],
  // no time named
  ['claude no reset', "API Error: Request rejected (429) · You've hit your usage limit.", undefined],
  ['codex no reset', 'Quota exceeded. Check your plan and billing details.', undefined],
  ['a bare number is no time of day', 'rate limit: resets 5 requests', undefined],
];

for (const [name, text, want] of TEXT) {
  test(`reset from text: ${name}`, (t) => t.is(resetFromText(text, NOW), want));
}

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
  t.deepEqual(quotaOf(words, NOW, { resetsAt: 1795567200, headers: { 'retry-after': '60' } }), { resetsAt: '2026-11-25T00:40:00.000Z', evidence: words });
  t.deepEqual(quotaOf(words, NOW, { headers: { 'retry-after': '60' } }), { resetsAt: '2026-11-24T10:21:00.000Z', evidence: words });
  t.deepEqual(quotaOf(words, NOW), { resetsAt: '2026-11-24T15:00:00.000Z', evidence: words });
  t.deepEqual(quotaOf('Quota exceeded', NOW), { evidence: 'Quota exceeded' });
  t.true(quotaOf('x'.repeat(5000), NOW).evidence.length <= 1000);
});

test('withQuota: only a quota failure gains the quota field', (t) => {
  const failed = { outcome: 'failure' as const, failure: 'quota' as const, summary: "You've hit your limit · resets 3pm (UTC)" };
  t.deepEqual(withQuota(failed, failed.summary, NOW).quota, { resetsAt: '2026-11-24T15:00:00.000Z', evidence: failed.summary });
  const other = { outcome: 'failure' as const, failure: 'error' as const, summary: 'resets 3pm' };
  t.is(withQuota(other, other.summary, NOW).quota, undefined);
});

test('classify: each CLI\'s quota words and a 429 are quota', (t) => {
  for (const text of ["You've hit your limit · resets 3pm", 'Claude AI usage limit reached|1795567200', "You've hit your usage limit. Try again in 5 minutes.", 'Quota exceeded']) t.is(classifyText(text), 'quota', text);
  t.is(classifyStatus(429), 'quota');
});
