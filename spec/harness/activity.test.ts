// One activity model for the three CLIs: the same tool-using turn (read a file, write one, run a
// command, run a failing command), scripted for the real claude, codex and opencode, yields the
// same activity rows: kinds, titles relative to the worktree, statuses, outputs. The rows are
// recorded by the real activity log in a real LMDB store, as the engine records them.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../journal/store.js';
import type { TurnInput } from '../../lib/harness/adapter.js';
import { createAdapters } from '../../lib/harness/registry.js';
import { LogStore } from '../../lib/state/log-store.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { readFile, runShell, say, writeFile } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, opencodeTestEnv, turnInput, writeCodexConfig, writeOpencodeConfig, type Sandbox } from './sandbox.js';

type Cli = 'claude' | 'codex' | 'opencode';

const setUp: Record<Cli, (sb: Sandbox, modelUrl: string) => Partial<TurnInput>> = {
  claude: (_sb, url) => ({ env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-test' } }),
  codex: (sb, url) => (writeCodexConfig(sb, url), { env: { OPENAI_API_KEY: 'sk-test' } }),
  opencode: (sb, url) => (writeOpencodeConfig(sb, url), { env: opencodeTestEnv }),
};

const oneTurn = async (t: ExecutionContext, cli: Cli) => {
  t.timeout(180_000);
  const sb = makeSandbox();
  writeFileSync(join(sb.repo, 'notes.txt'), 'line one\nline two\n');
  const model = await startModelServer([
    readFile(join(sb.repo, 'notes.txt')),
    writeFile(join(sb.repo, 'out.txt'), 'written\n'),
    runShell('echo hello-from-shell'),
    runShell('ls does-not-exist'),
    say('Done.'),
  ]);
  const tools = await startRunTools();
  const dbDir = mkdtempSync(join(tmpdir(), 'svc-activity-db-'));
  const store = openStore(dbDir);
  t.teardown(async () => (await model.close(), await tools.close(), await store.close(), rmSync(dbDir, { recursive: true, force: true }), sb.cleanup()));
  const logs = new LogStore(store);
  const adapters = createAdapters({ commands: { [cli]: cliBin(cli) }, env: sb.env });
  const { input, rec } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'Work', tools: 'full', ...setUp[cli](sb, model.url) });
  const at = () => new Date().toISOString();
  const result = await adapters[cli].startTurn({
    ...input,
    onLog: (l) => (input.onLog(l), logs.write('run-1', 'agent', l.text)),
    onActivity: (a) => (input.onActivity?.(a), logs.activity.record('run-1', 'step-1', a, at())),
  }).result;
  t.is(result.outcome, 'success', `${result.summary}\n${rec.logs.join('\n')}`);
  await logs.flushed();
  return { rows: logs.activity.page('run-1', undefined, 50), logs, rec };
};

for (const cli of ['claude', 'codex', 'opencode'] as const) {
  test(`${cli}: a read, a write, a command and a failing command become the same four activity rows`, async (t) => {
    const { rows, logs } = await oneTurn(t, cli);
    t.deepEqual(rows.map((r) => ({ kind: r.kind, title: r.title, path: r.path, status: r.status })), [
      { kind: 'read', title: 'notes.txt', path: 'notes.txt', status: 'ok' },
      { kind: 'write', title: 'out.txt', path: 'out.txt', status: 'ok' },
      { kind: 'command', title: 'echo hello-from-shell', path: undefined, status: 'ok' },
      { kind: 'command', title: 'ls does-not-exist', path: undefined, status: 'error' },
    ]);
    t.true(rows[0]!.output!.includes('line one'), rows[0]!.output);
    t.true(rows[2]!.output!.includes('hello-from-shell'));
    t.true(rows[3]!.output!.includes('does-not-exist'));
    t.is(rows[3]!.exitCode, 2, 'the failing command says its exit code');
    for (const r of rows) {
      t.is(r.stepId, 'step-1');
      t.truthy(r.endedAt, `row ${r.id} ended`);
      t.true(r.startedAt <= r.endedAt!, `row ${r.id}: started before it ended`);
      t.true(r.line >= 1 && r.line <= logs.head('run-1'), 'each row names the log line it came with');
    }
    t.deepEqual(logs.activity.get('run-1', 1), rows[0], 'a row reads back whole by its id');
  });
}
