// The installed skill as the real CLIs see it: install through the API into the test's HOME, then
// start the CLI from node_modules/.bin there against the scripted model server. Claude Code lists
// it in its init line (`skills`, `slash_commands`); Codex and OpenCode put it in what they send the
// model. Before the install, none of them knows it.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { say } from '../fixtures/model-server/script.js';
import { CODEX_LOOPBACK, cliBin, opencodeTestEnv } from '../harness/sandbox.js';
import { LOOPBACK_REGISTRY } from '../helpers/loopback-npm.js';

process.env['XDG_CONFIG_HOME'] = tempDir('svc-xdg-');

const cliEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const root = tempDir('svc-cli-');
  const dirs = Object.fromEntries(['data', 'cache', 'state', 'codex'].map((d) => [d, join(root, d)]));
  Object.values(dirs).forEach((d) => mkdirSync(d, { recursive: true }));
  return {
    PATH: process.env['PATH'], LANG: 'C.UTF-8', TMPDIR: root,
    HOME: process.env['HOME'], XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'],
    XDG_DATA_HOME: dirs['data'], XDG_CACHE_HOME: dirs['cache'], XDG_STATE_HOME: dirs['state'], CODEX_HOME: dirs['codex'],
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', NO_PROXY: '127.0.0.1,localhost',
    // nothing beyond loopback (spec/helpers/loopback-npm.ts)
    npm_config_registry: LOOPBACK_REGISTRY, npm_config_cache: join(root, 'npm'), ...opencodeTestEnv,
    ...extra,
  };
};

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });

const claudeInit = async (repo: string): Promise<{ skills: string[]; slash_commands: string[] }> => {
  const model = await startModelServer([say('ok')]);
  try {
    const env = cliEnv({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
    const r = await run(cliBin('claude'), ['-p', '--verbose', '--output-format', 'stream-json', 'say ok'], repo, env);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const init = lines.find((l) => l.type === 'system' && l.subtype === 'init');
    if (!init) throw new Error(`no init line (exit ${r.code}): ${r.stderr.slice(-800)}`);
    return init;
  } finally {
    await model.close();
  }
};

const install = async (s: TestServer, harness: string) => {
  const r = await s.send('POST', '/api/skills/install', JSON.stringify({ skill: 'svc-mcp', harness }));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body;
};

let s: TestServer;
test.before(async () => { s = await testServer(); });
test.after.always(async () => { await s.close(); });

test.serial('the real claude lists the skill once it is installed into HOME, and not before', async (t) => {
  t.timeout(300_000);
  const repo = gitRepo();
  const before = await claudeInit(repo);
  t.false(before.skills.includes('svc-mcp'));
  await install(s, 'claude');
  const after = await claudeInit(repo);
  t.true(after.skills.includes('svc-mcp'), JSON.stringify(after.skills));
  t.true(after.slash_commands.includes('svc-mcp'), 'and offers it as /svc-mcp');
});

const modelSees = async (harness: 'codex' | 'opencode', repo: string): Promise<string> => {
  const model = await startModelServer([say('ok'), say('ok'), say('ok')]);
  try {
    if (harness === 'codex') {
      const args = ['exec', '--json', '--skip-git-repo-check', ...CODEX_LOOPBACK.flatMap((setting) => ['-c', setting]), '-c', 'model_provider=mock', '-c', 'model_providers.mock.name="mock"',
        '-c', `model_providers.mock.base_url="${model.url}/v1"`, '-c', 'model_providers.mock.wire_api="responses"', '-c', 'model_providers.mock.env_key="OPENAI_API_KEY"', 'say ok'];
      await run(cliBin('codex'), args, repo, cliEnv({ OPENAI_API_KEY: 'sk-test' }));
    } else {
      const config = { provider: { mock: { npm: '@ai-sdk/anthropic', options: { baseURL: `${model.url}/v1`, apiKey: 'sk-test' }, models: { m: {} } } }, model: 'mock/m' };
      await run(cliBin('opencode'), ['run', '--format', 'json', 'say ok'], repo, cliEnv({ OPENCODE_CONFIG_CONTENT: JSON.stringify(config) }));
    }
    return JSON.stringify(model.requests.map((r) => r.body));
  } finally {
    await model.close();
  }
};

// Codex and OpenCode also read ~/.claude/skills or ~/.agents/skills: each is checked on a fresh
// HOME-level state where only its own folder holds the skill.
test.serial('the real codex and opencode offer the skill to the model once it is installed for them', async (t) => {
  t.timeout(300_000);
  const repo = gitRepo();
  const { rmSync } = await import('node:fs');
  rmSync(join(process.env['HOME']!, '.claude', 'skills', 'svc-mcp'), { recursive: true, force: true });
  t.false((await modelSees('codex', repo)).includes('svc-mcp'));
  const codex = await install(s, 'codex');
  t.true((await modelSees('codex', repo)).includes('svc-mcp'), 'codex sent the skill to the model');
  rmSync(codex.folder, { recursive: true, force: true });
  t.false((await modelSees('opencode', repo)).includes('svc-mcp'));
  await install(s, 'opencode');
  t.true((await modelSees('opencode', repo)).includes('svc-mcp'), 'opencode sent the skill to the model');
});
