import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBin, makeSandbox, opencodeTestEnv, type Sandbox } from '../harness/sandbox.js';
import { startLive } from './helpers/live.js';

// The real `claude mcp list` and `opencode mcp list` against the real server, registered with a
// wrong token and with none: each must report an authentication failure. They probe
// /.well-known/oauth-* (and Claude Code then POSTs /register) after the 401; when those answered
// the app's HTML, the CLIs said "JSON Parse error: Unrecognized token '<'" / "Failed to parse JSON".

const live = startLive();
test.after.always(async () => (await live).server.close());

const run = (file: string, args: string[], sandbox: Sandbox, env: NodeJS.ProcessEnv = {}): Promise<string> =>
  new Promise((resolve) => {
    execFile(file, args, { cwd: sandbox.repo, env: { ...sandbox.env, ...env }, timeout: 90_000 }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });

const PARSE_ERROR = /JSON Parse error|Unrecognized token|Failed to parse JSON|Unexpected token/i;

test('claude mcp list: a wrong token and a missing one are reported as refused authentication, never a JSON parse error', async (t) => {
  const { server } = await live;
  const sandbox = makeSandbox();
  t.teardown(() => sandbox.cleanup());
  const url = `${server.baseUrl}mcp`;
  const claude = cliBin('claude');
  await run(claude, ['mcp', 'add', '--transport', 'http', '-s', 'user', 'wrongtoken', url, '--header', 'Authorization: Bearer wrong'], sandbox);
  await run(claude, ['mcp', 'add', '--transport', 'http', '-s', 'user', 'notoken', url], sandbox);
  const out = await run(claude, ['mcp', 'list'], sandbox);
  const line = (name: string) => out.split('\n').find((l) => l.startsWith(`${name}:`)) ?? `(no line for ${name}) ${out}`;
  for (const name of ['wrongtoken', 'notoken']) {
    t.notRegex(line(name), PARSE_ERROR, name);
    t.regex(line(name), /Failed to connect/, name);
    // the detail the server gave names where the token comes from
    t.regex(line(name), /svc mcp token/, name);
  }
  t.regex(line('wrongtoken'), /HTTP 401/);
});

test('opencode mcp list: a wrong token and a missing one need authentication, never a JSON parse error', async (t) => {
  const { server } = await live;
  const sandbox = makeSandbox();
  t.teardown(() => sandbox.cleanup());
  const url = `${server.baseUrl}mcp`;
  const dir = join(sandbox.env.XDG_CONFIG_HOME!, 'opencode');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'opencode.json'), JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    mcp: {
      wrongtoken: { type: 'remote', url, headers: { Authorization: 'Bearer wrong' }, enabled: true },
      notoken: { type: 'remote', url, enabled: true },
    },
  }));
  // colour codes off: the listing is read as text
  const out = (await run(cliBin('opencode'), ['mcp', 'list'], sandbox, { ...opencodeTestEnv, NO_COLOR: '1' })).replace(/\x1b\[[0-9;]*m/g, '');
  t.notRegex(out, PARSE_ERROR);
  for (const name of ['wrongtoken', 'notoken']) t.regex(out, new RegExp(`${name}\\s+needs authentication`), out);
});
