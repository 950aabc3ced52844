import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { eventually, tempDir } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';

// `svc doctor`, the real executable: a newcomer's one-command check of the server and the agent CLIs.

test('no server and no CLI: each harness is "not installed" with its install command, exit 1', async (t) => {
  const home = tempDir('svc-doctor-');
  const nowhere = join(home, 'no-bin');
  const env: NodeJS.ProcessEnv = {
    ...process.env, HOME: home, SVC_HOME: join(home, '.svc'),
    SVC_HARNESS_BIN_CLAUDE: join(nowhere, 'claude'), SVC_HARNESS_BIN_CODEX: join(nowhere, 'codex'), SVC_HARNESS_BIN_OPENCODE: join(nowhere, 'opencode'),
    SVC_BWRAP: join(nowhere, 'bwrap'),
  };
  delete env['SVC_HARNESS_MODULE'];
  const r = await runCli(env, ['doctor']);
  t.is(r.code, 1, r.stderr);
  t.is(r.stderr, '');
  t.is(r.stdout, [
    'server    not running (start one with `svc serve`)',
    `claude    not installed  ${nowhere}/claude: not found; install it with \`npm install -g @anthropic-ai/claude-code\``,
    `codex     not installed  ${nowhere}/codex: not found; install it with \`npm install -g @openai/codex\``,
    `opencode  not installed  ${nowhere}/opencode: not found; install it with \`npm install -g opencode-ai\``,
    `sandbox   unavailable    bubblewrap is not installed (${nowhere}/bwrap: not found); install it with \`apt-get install bubblewrap\`; runs of projects set to preferred run unsandboxed (marked), required ones do not start`,
    'No harness is ready: install and log in to one of the CLIs above; runs need one.',
    '',
  ].join('\n'));
});

test('with a server: its address and version, and the harnesses as it checks them now (its answers refreshed), exit 0', async (t) => {
  process.env['SCRIPTED_CODEX_DOWN'] = '1';
  const s = await testServer();
  t.teardown(() => s.close());
  await eventually(() => s.get('/api/harnesses'), (r) => r.body.harnesses.find((h: any) => h.name === 'codex').availability._tag === 'NotLoggedIn');
  delete process.env['SCRIPTED_CODEX_DOWN'];
  const r = await runCli({ ...process.env, SVC_HOME: s.home }, ['doctor']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, [
    `server    running at ${s.url}/ (svc ${s.service.core.version})`,
    'claude    ready          scripted',
    'codex     ready          scripted',
    'opencode  ready          scripted',
    `sandbox   ready          ${execFileSync('bwrap', ['--version'], { encoding: 'utf8' }).trim()}: runs are sandboxed`,
    '3 of 3 harnesses ready (as the server sees them).',
    '',
  ].join('\n'));
  t.is((await s.get('/api/harnesses')).body.harnesses.find((h: any) => h.name === 'codex').availability._tag, 'Ready', 'the server re-checked');
});
