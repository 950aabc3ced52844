import '../helpers/env.js';
import test from 'ava';
import { appCodes, CODE_TTL_MS } from '../../lib/auth/app-codes.js';

// The one-time codes, on a clock the test moves.

const clock = () => {
  let t = 1_000_000;
  return { now: () => t, pass: (ms: number) => { t += ms; } };
};

test('a code is redeemed once', (t) => {
  const c = clock();
  const codes = appCodes(c.now);
  const code = codes.issue();
  t.true(codes.redeem(code));
  t.false(codes.redeem(code));
});

test('a code expires after a minute', (t) => {
  const c = clock();
  const codes = appCodes(c.now);
  const late = codes.issue();
  const early = codes.issue();
  c.pass(CODE_TTL_MS - 1);
  t.true(codes.redeem(early));
  c.pass(1);
  t.false(codes.redeem(late));
  t.is(CODE_TTL_MS, 60_000);
});

test('a code never issued is refused, and codes are unguessable and distinct', (t) => {
  const codes = appCodes();
  t.false(codes.redeem(''));
  t.false(codes.redeem('abc'));
  const a = codes.issue();
  const b = codes.issue();
  t.not(a, b);
  t.regex(a, /^[\w-]{43}$/);
});
