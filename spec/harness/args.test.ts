// The flags each adapter builds, without running a CLI: fast checks of the mapping documented
// in docs/harnesses.md.
import test from 'ava';
import type { TurnInput } from '../../lib/harness/adapter.js';
import { claudeArgs, claudeMcpConfig } from '../../lib/harness/claude-args.js';
import { codexArgs } from '../../lib/harness/codex-args.js';
import { binFor } from '../../lib/harness/common.js';
import { opencodeArgs, opencodeConfig } from '../../lib/harness/opencode-args.js';
import { classifyText } from '../../lib/harness/classify.js';

const input = (over: Partial<TurnInput> = {}): TurnInput => ({
  runId: 'r',
  stepId: 's',
  cwd: '/tmp',
  prompt: '-starts with a dash',
  tools: 'edit',
  runTools: { url: 'http://127.0.0.1:1/run-tools/r/mcp', token: 'SECRET-TOKEN' },
  env: {},
  watchdogMs: 1000,
  signal: new AbortController().signal,
  onLog: () => {},
  onMessage: () => {},
  ...over,
});

test('claude: stream-json both ways, strict MCP config without the token in argv, resume', (t) => {
  const args = claudeArgs(input({ model: 'opus', systemPrompt: 'persona', resumeSession: 'sess-1' }));
  t.deepEqual(args.slice(0, 6), ['-p', '--verbose', '--output-format', 'stream-json', '--input-format', 'stream-json']);
  t.true(args.includes('--strict-mcp-config'));
  t.false(args.join(' ').includes('SECRET-TOKEN'));
  t.false(args.includes('-starts with a dash'), 'the prompt goes to stdin');
  t.deepEqual(args.slice(args.indexOf('--resume'), args.indexOf('--resume') + 2), ['--resume', 'sess-1']);
  t.deepEqual(args.slice(args.indexOf('--append-system-prompt'), args.indexOf('--append-system-prompt') + 2), ['--append-system-prompt', 'persona']);
  t.deepEqual(JSON.parse(claudeMcpConfig('http://x')).mcpServers.svc.headers, { Authorization: 'Bearer ${SVC_RUN_TOKEN}' });
});

test('codex: flags before resume, prompt after --, sandbox per tool access', (t) => {
  const args = codexArgs(input({ resumeSession: 'thread-1', tools: 'read-only' }));
  t.deepEqual(args.slice(0, 2), ['exec', '--json']);
  t.deepEqual(args.slice(-4), ['resume', 'thread-1', '--', '-starts with a dash']);
  t.is(args[args.indexOf('--sandbox') + 1], 'read-only');
  t.false(args.join(' ').includes('SECRET-TOKEN'));
  t.true(codexArgs(input({ tools: 'full' })).includes('--dangerously-bypass-approvals-and-sandbox'));
  t.is(codexArgs(input())[codexArgs(input()).indexOf('--sandbox') + 1], 'workspace-write');
});

test('codex inside svc\'s sandbox: its own is off at every tools level, approvals never asked', (t) => {
  const ours = { wrap: (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => ({ file, args: [...args], env }) };
  for (const tools of ['read-only', 'edit', 'full'] as const) {
    const args = codexArgs(input({ tools, sandbox: ours }));
    t.is(args[args.indexOf('--sandbox') + 1], 'danger-full-access', tools);
    t.true(args.includes('approval_policy="never"'), tools);
    t.false(args.includes('--dangerously-bypass-approvals-and-sandbox'), tools);
  }
});

test('opencode: inline config merges over the caller config; persona prepended', (t) => {
  const cfg = JSON.parse(opencodeConfig(input({ tools: 'read-only' }), JSON.stringify({ model: 'a/b', mcp: { other: { type: 'local' } } })));
  t.is(cfg.model, 'a/b');
  t.deepEqual(Object.keys(cfg.mcp).sort(), ['other', 'svc']);
  t.is(cfg.mcp.svc.headers.Authorization, 'Bearer SECRET-TOKEN');
  t.is(cfg.permission.edit, 'deny');
  const args = opencodeArgs(input({ systemPrompt: 'persona', resumeSession: 'ses_1' }));
  t.deepEqual(args.slice(args.indexOf('--session'), args.indexOf('--session') + 2), ['--session', 'ses_1']);
  t.is(args.at(-1), 'persona\n\n---\n\n-starts with a dash');
  t.is(args.at(-2), '--');
});

test('a fork\'s first turn: claude --resume with --fork-session, opencode --session with --fork; a plain resume has neither', (t) => {
  const claude = claudeArgs(input({ resumeSession: 'sess-1', forkSession: true }));
  t.deepEqual(claude.slice(claude.indexOf('--resume'), claude.indexOf('--resume') + 3), ['--resume', 'sess-1', '--fork-session']);
  t.false(claudeArgs(input({ resumeSession: 'sess-1' })).includes('--fork-session'));
  t.false(claudeArgs(input({ forkSession: true })).includes('--fork-session'), 'nothing to fork without a session');
  const opencode = opencodeArgs(input({ resumeSession: 'ses_1', forkSession: true }));
  t.deepEqual(opencode.slice(opencode.indexOf('--session'), opencode.indexOf('--session') + 3), ['--session', 'ses_1', '--fork']);
  t.false(opencodeArgs(input({ resumeSession: 'ses_1' })).includes('--fork'));
});

test('binary: SVC_HARNESS_BIN_<NAME> over config over the bare name', (t) => {
  t.is(binFor('codex', { env: {} }), 'codex');
  t.is(binFor('codex', { env: {}, commands: { codex: '/opt/codex' } }), '/opt/codex');
  t.is(binFor('codex', { env: { SVC_HARNESS_BIN_CODEX: '/env/codex' }, commands: { codex: '/opt/codex' } }), '/env/codex');
});

test('failure classification from the CLIs own words', (t) => {
  t.is(classifyText("You've hit your usage limit. Resets at 5pm."), 'quota');
  t.is(classifyText('Quota exceeded. Check your plan and billing details.'), 'quota');
  t.is(classifyText('Invalid API key · Please run /login'), 'unavailable');
  t.is(classifyText('Something broke'), 'error');
  // the agent's own tool failing on a missing file is its failure, not a harness problem
  t.is(classifyText("Error: ENOENT: no such file or directory, open 'src/missing.ts'"), 'error');
});
