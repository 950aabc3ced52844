import test from 'ava';
import { resolveToken } from '../../lib/codehost/config.js';

const config = (token: string | null) => ({ graphqlUrl: 'https://api.github.com/graphql', webHost: 'github.com', token });

test('a stored token wins over GH_TOKEN', (t) => {
  t.is(resolveToken(config('stored'), { GH_TOKEN: 'env' }), 'stored');
});

test('no stored token: GH_TOKEN, trimmed', (t) => {
  t.is(resolveToken(config(null), { GH_TOKEN: ' env\n' }), 'env');
});

test('neither, or blank: no token', (t) => {
  t.is(resolveToken(config(null), {}), null);
  t.is(resolveToken(config(null), { GH_TOKEN: '  ' }), null);
});

test('a blank stored token counts as none: GH_TOKEN is used', (t) => {
  t.is(resolveToken(config(' '), { GH_TOKEN: 'env' }), 'env');
});
