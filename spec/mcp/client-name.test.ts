import test from 'ava';
import { Socket } from 'node:net';
import { clientName, rememberClient } from '../../lib/mcp/client-name.js';

// The caller's name survives the stateless endpoint: per socket, then per User-Agent while that
// User-Agent belongs to one client name only, then the User-Agent's product token.

test('a socket that initialized keeps its client name', (t) => {
  const s = new Socket();
  rememberClient(s, 'ua-one/1.0', 'claude-code');
  t.is(clientName(s, 'ua-one/1.0'), 'claude-code');
});

test('another socket with the same User-Agent gets the name while it is unambiguous', (t) => {
  rememberClient(new Socket(), 'ua-two/2.0 (linux)', 'codex');
  t.is(clientName(new Socket(), 'ua-two/2.0 (linux)'), 'codex');
  rememberClient(new Socket(), 'ua-two/2.0 (linux)', 'opencode');
  t.is(clientName(new Socket(), 'ua-two/2.0 (linux)'), 'ua-two');
});

test('without an initialize, the User-Agent product names the caller; nothing at all is undefined', (t) => {
  t.is(clientName(new Socket(), 'claude-code/2.1.3 (cli)'), 'claude-code');
  t.is(clientName(new Socket(), undefined), undefined);
});

test('blank names are not remembered', (t) => {
  const s = new Socket();
  rememberClient(s, 'ua-three', '   ');
  t.is(clientName(s, 'ua-three'), 'ua-three');
});
