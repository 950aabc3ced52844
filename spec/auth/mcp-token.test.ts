import test from 'ava';
import { chmodSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { ensureToken, readToken, regenerateToken, tokenCheck, tokenPath } from '../../lib/auth/mcp-token.js';
import { bearerToken, secretsEqual } from '../../lib/auth/bearer.js';
import { mcpTokenCommand } from '../../lib/cli/mcp-token.js';
import { tempHome } from '../mcp/helpers/temp-home.js';

const home = (): string => tempHome('svc-token-');

const mode = (path: string): number => statSync(path).mode & 0o777;

test('first start creates an owner-only token file; the next start keeps it', (t) => {
  const h = home();
  t.is(readToken(h), null);
  const token = ensureToken(h);
  t.regex(token, /^[A-Za-z0-9_-]{40,}$/);
  t.is(mode(tokenPath(h)), 0o600);
  t.is(mode(h), 0o700);
  t.is(ensureToken(h), token);
  t.is(readFileSync(tokenPath(h), 'utf8').trim(), token);
});

test('regenerate replaces the token; checks refuse the old one at once', (t) => {
  const h = home();
  const check = tokenCheck(h);
  const old = ensureToken(h);
  t.true(check(old));
  const fresh = regenerateToken(h);
  t.not(fresh, old);
  t.false(check(old));
  t.true(check(fresh));
  t.is(mode(tokenPath(h)), 0o600);
});

test('a check refuses no token, an empty token and a near miss', (t) => {
  const h = home();
  const token = ensureToken(h);
  const check = tokenCheck(h);
  t.false(check(null));
  t.false(check(''));
  t.false(check(token.slice(0, -1)));
  t.false(check(token + 'x'));
});

test('a check refuses everything while no token file exists', (t) => {
  const check = tokenCheck(home());
  t.false(check('anything'));
});

test('an existing token file with loose bits is tightened to 0600', (t) => {
  const h = home();
  mkdirSync(h, { recursive: true });
  writeFileSync(tokenPath(h), 'abc\n');
  chmodSync(tokenPath(h), 0o644);
  t.is(ensureToken(h), 'abc');
  t.is(mode(tokenPath(h)), 0o600);
});

test('bearer header parsing', (t) => {
  t.is(bearerToken('Bearer abc'), 'abc');
  t.is(bearerToken('bearer   abc '), 'abc');
  t.is(bearerToken('Basic abc'), null);
  t.is(bearerToken('Bearer'), null);
  t.is(bearerToken('Bearer a b'), null);
  t.is(bearerToken(undefined), null);
});

test('secrets compare equal only when equal, whatever the lengths', (t) => {
  t.true(secretsEqual('abc', 'abc'));
  t.false(secretsEqual('abc', 'abd'));
  t.false(secretsEqual('abc', 'abcd'));
  t.false(secretsEqual('abc', ''));
});

test('svc mcp token prints the token, --regenerate prints a new one', (t) => {
  const h = home();
  const out: string[] = [];
  t.is(mcpTokenCommand([], h, (s) => out.push(s)), 0);
  t.is(out[0], `${readToken(h)}\n`);
  t.is(mcpTokenCommand([], h, (s) => out.push(s)), 0);
  t.is(out[1], out[0]);
  t.is(mcpTokenCommand(['--regenerate'], h, (s) => out.push(s)), 0);
  t.not(out[2], out[0]);
  t.is(out[2], `${readToken(h)}\n`);
});

test('svc mcp token refuses unknown arguments and changes nothing', (t) => {
  const h = home();
  const before = ensureToken(h);
  const err: string[] = [];
  t.is(mcpTokenCommand(['--rotate'], h, () => t.fail('printed a token'), (s) => err.push(s)), 2);
  t.regex(err.join(''), /unknown argument: --rotate/);
  t.is(readToken(h), before);
});
