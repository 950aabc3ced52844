import test from 'ava';
import { ago, span } from '../../lib/web/pages/runs/time.js';

// The board's times as a person reads them, at a fixed "now".

test('span: the largest unit and the next', (t) => {
  t.is(span(0), '0 s');
  t.is(span(999), '0 s');
  t.is(span(40_000), '40 s');
  t.is(span(65_000), '1 min 5 s');
  t.is(span(3_600_000 + 5 * 60_000 + 7000), '1 h 5 min');
  t.is(span(2 * 86_400_000 + 3 * 3_600_000), '2 d 3 h');
  t.is(span(86_400_000 + 30_000), '1 d', 'a next unit of zero is left out');
  t.is(span(-5), '0 s');
});

test('ago: just now under a minute, else the largest unit', (t) => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  t.is(ago('2026-11-24T11:59:30Z', now), 'just now');
  t.is(ago('2026-11-24T11:55:00Z', now), '5 min ago');
  t.is(ago('2026-11-24T09:10:00Z', now), '2 h ago');
  t.is(ago('2026-11-20T12:00:00Z', now), '4 d ago');
  t.is(ago('not a time', now), '');
});
