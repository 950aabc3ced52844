// Test sandboxes for the real CLIs: a temp git repo as cwd, HOME / XDG / CODEX_HOME in temp
// folders, a minimal environment (no credentials or proxies leak in from the host), and sinks
// that record what an adapter reported.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActivityReport } from '../../lib/harness/activity.js';
import type { AgentLogLine, TurnInput } from '../../lib/harness/adapter.js';
import type { ToolAccess } from '../../domain/workflow.js';
import { LIFELINE } from '../../lib/harness/process.js';
import { entryOf } from '../../lib/sandbox/allowlist.js';
import { bwrapBin } from '../../lib/sandbox/probe.js';
import { LOOPBACK_REGISTRY } from '../helpers/loopback-npm.js';
import { openStepSandbox, type StepSandbox } from '../../lib/sandbox/sandbox.js';

export const repoRoot = new URL('../../', import.meta.url).pathname;
export const cliBin = (name: 'claude' | 'codex' | 'opencode'): string => join(repoRoot, 'node_modules/.bin', name);

export interface Sandbox {
  readonly root: string;
  readonly repo: string;
  /** environment for createAdapters({env}) */
  readonly env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export const makeSandbox = (): Sandbox => {
  const root = mkdtempSync(join(tmpdir(), 'svc-harness-'));
  const repo = join(root, 'repo');
  const dirs = ['home', 'config', 'data', 'cache', 'state', 'codex'].map((d) => join(root, d));
  for (const d of [repo, ...dirs]) mkdirSync(d, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: repo });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    TMPDIR: root,
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_STATE_HOME: join(root, 'state'),
    CODEX_HOME: join(root, 'codex'),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    NO_PROXY: '127.0.0.1,localhost',
    npm_config_registry: LOOPBACK_REGISTRY,
    npm_config_cache: join(root, 'cache', 'npm'),
  };
  return { root, repo, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
};

export interface Recorded {
  readonly logs: string[];
  readonly messages: string[];
  readonly sessions: string[];
  readonly activity: ActivityReport[];
}

export const turnInput = (
  sandbox: Sandbox,
  runTools: { url: string; token: string },
  over: Partial<TurnInput> & { prompt: string },
): { input: TurnInput; rec: Recorded; abort: AbortController } => {
  const rec: Recorded = { logs: [], messages: [], sessions: [], activity: [] };
  const abort = new AbortController();
  const input: TurnInput = {
    runId: 'run-1',
    stepId: 'step-1',
    cwd: sandbox.repo,
    tools: 'edit' as ToolAccess,
    runTools,
    env: {},
    watchdogMs: 60_000,
    signal: abort.signal,
    onLog: (l: AgentLogLine) => void rec.logs.push(l.text),
    onMessage: (m) => void rec.messages.push(m),
    onSession: (s) => void rec.sessions.push(s),
    onActivity: (a) => void rec.activity.push(a),
    ...over,
  };
  return { input, rec, abort };
};

/** Processes whose working directory is inside `dir` (the CLI and anything it started). */
export const processesIn = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    })
    .map(Number);

/** Every scripted request body as text, for "the model saw X" assertions. */
export const bodiesText = (bodies: unknown[]): string[] => bodies.map((b) => JSON.stringify(b));

/** Point codex at the scripted server the way a user would: a provider in $CODEX_HOME/config.toml. */
/**
 * codex's settings (dotted keys, as `-c` takes them) that keep a test on loopback: otherwise at each
 * start it asks api.github.com for its latest release, runs `git ls-remote
 * https://github.com/openai/plugins.git` for its plugin marketplace and looks up ab.chatgpt.com
 * (seen with strace)
 */
export const CODEX_LOOPBACK = ['check_for_update_on_startup=false', 'features.plugins=false', 'analytics.enabled=false'] as const;

export const writeCodexConfig = (sandbox: Sandbox, modelUrl: string): void => {
  const toml = [
    'model = "gpt-5.5"', // a slug codex knows, so it offers its apply_patch tool
    'model_provider = "scripted"',
    ...CODEX_LOOPBACK.map((setting) => setting.replace('=', ' = ')),
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
  writeFileSync(join(sandbox.env.CODEX_HOME!, 'config.toml'), toml);
};

/**
 * Point opencode at the scripted server the way a user would: a provider in the global config
 * ($XDG_CONFIG_HOME/opencode/opencode.json). It uses opencode's bundled @ai-sdk/anthropic with a
 * baseURL, so nothing is downloaded at run time; models.dev is not fetched either.
 */
export const writeOpencodeConfig = (sandbox: Sandbox, modelUrl: string): void => {
  const dir = join(sandbox.env.XDG_CONFIG_HOME!, 'opencode');
  mkdirSync(dir, { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'scripted/scripted-model',
    small_model: 'scripted/scripted-model',
    provider: {
      scripted: {
        npm: '@ai-sdk/anthropic',
        name: 'Scripted',
        options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-test' },
        models: { 'scripted-model': { name: 'Scripted model', tool_call: true, limit: { context: 200000, output: 8192 } } },
      },
    },
  };
  writeFileSync(join(dir, 'opencode.json'), JSON.stringify(config, null, 2));
};

/** Environment opencode tests add: no models.dev fetch, no update checks. */
export const opencodeTestEnv = { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' };

/**
 * svc's own sandbox (lib/sandbox) around a turn, as the engine opens it for a run: the temp repo
 * writable, the CLI's temp state bound into a private home, the model server the only host allowed.
 * `refused` collects what the egress proxy turned away.
 */
export const svcSandbox = (sandbox: Sandbox, tool: 'claude' | 'codex' | 'opencode', o: { modelUrl: string; runTools: string; env?: Record<string, string>; writable?: boolean }): StepSandbox & { refused: string[] } => {
  const refused: string[] = [];
  const opened = openStepSandbox({
    bwrap: bwrapBin(), tool, checkouts: [sandbox.repo], writable: o.writable ?? true, hidden: [], env: { ...sandbox.env, ...o.env },
    programs: [cliBin(tool), process.execPath, LIFELINE],
    egress: { allow: [entryOf(o.modelUrl)!], runTools: o.runTools }, onRefused: (d, why) => void refused.push(`${d}: ${why}`),
  });
  return Object.assign(opened, { refused });
};
