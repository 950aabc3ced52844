// How the board and the run page word a quota window: "waiting: claude limited until 14:05".
process.env.TZ = 'UTC';
import test from 'ava';
import { limitedText, waitingText, windowText } from '../../lib/web/pages/runs/quota.js';

const NOW = Date.parse('2026-11-24T10:20:00.000Z');

test('a window ending today reads as the time of day; another day adds the date', (t) => {
  t.is(limitedText('claude', '2026-11-24T14:05:00.000Z', NOW), 'claude limited until 14:05');
  t.regex(limitedText('claude', '2026-11-25T01:00:00.000Z', NOW), /^claude limited until \S+ 01:00$/);
  t.is(windowText(null, NOW), 'limited (reset time unknown)');
});

test('a run waiting on a window says so until the window has passed', (t) => {
  t.is(waitingText({ harness: 'claude', until: '2026-11-24T14:05:00.000Z' }, NOW), 'waiting: claude limited until 14:05');
  t.is(waitingText({ harness: 'codex', until: null }, NOW), 'waiting: codex limited (reset time unknown)');
  t.is(waitingText({ harness: 'claude', until: '2026-11-24T10:00:00.000Z' }, NOW), null);
  t.is(waitingText(undefined, NOW), null);
});
