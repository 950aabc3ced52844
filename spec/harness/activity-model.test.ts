// The activity model's mapping rules, line by line, for what the CLI tests do not script: a
// shell command that only shows a file reads it (whatever wraps it), a pipeline stays a command,
// the in-run ask_question is a question for every CLI, a codex patch names each file it touched,
// an opencode shell command that exits non-zero is an error.
import test from 'ava';
import { describeCommand, relativeIn } from '../../lib/harness/activity.js';
import { claudeActivity } from '../../lib/harness/claude-activity.js';
import { codexActivity } from '../../lib/harness/codex-activity.js';
import { opencodeActivity } from '../../lib/harness/opencode-activity.js';

const CWD = '/w/run-1/repo';

test('shell commands: a plain look at one file is a read of it, a search is a search, anything else a command', (t) => {
  t.deepEqual(describeCommand(`/bin/bash -lc 'cat ${CWD}/src/a.ts'`, CWD), { kind: 'read', title: 'src/a.ts', path: 'src/a.ts' });
  t.deepEqual(describeCommand('head -n 20 README.md', CWD), { kind: 'command', title: 'head -n 20 README.md' }, 'two operands: not one file');
  t.deepEqual(describeCommand('cat a.txt | wc -l', CWD), { kind: 'command', title: 'cat a.txt | wc -l' });
  t.deepEqual(describeCommand(`bash -lc "rg -n TODO ${CWD}/lib"`, CWD), { kind: 'search', title: 'rg -n TODO lib' });
  t.deepEqual(describeCommand(`/bin/bash -lc 'echo '\\''hi'\\'''`, CWD), { kind: 'command', title: "echo 'hi'" });
  t.is(relativeIn(`cd ${CWD} && ls ${CWD}/x ${CWD}2`, CWD), `cd . && ls x ${CWD}2`, 'a sibling folder is not the worktree');
});

test('ask_question is a question, another MCP tool an mcp call, in all three CLIs', (t) => {
  const claude = claudeActivity({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'c1', name: 'mcp__svc__ask_question', input: { prompt: 'Which colour?' } }] } }, CWD);
  t.like(claude[0], { phase: 'started', kind: 'question', title: 'Which colour?' });
  const codex = codexActivity({ type: 'item.started', item: { id: 'i1', type: 'mcp_tool_call', server: 'svc', tool: 'ask_question', arguments: { prompt: 'Which colour?' }, status: 'in_progress' } }, CWD);
  t.like(codex[0], { kind: 'question', title: 'Which colour?' });
  const opencode = opencodeActivity({ type: 'tool_use', part: { tool: 'docs_lookup', callID: 'o1', state: { status: 'completed', input: {}, output: 'found' } } }, CWD);
  t.like(opencode[0], { kind: 'mcp', title: 'docs.lookup' });
  t.like(opencode[1], { phase: 'ended', status: 'ok', output: 'found' });
});

test('a codex patch is one row per file; a deleted file says so', (t) => {
  const changes = [{ path: `${CWD}/a.ts`, kind: 'update' }, { path: `${CWD}/old.ts`, kind: 'delete' }, { path: `${CWD}/new.ts`, kind: 'add' }];
  const rows = codexActivity({ type: 'item.started', item: { id: 'i2', type: 'file_change', changes, status: 'in_progress' } }, CWD);
  t.deepEqual(rows.map((r) => r.phase === 'started' && [r.kind, r.title, r.path]), [['edit', 'a.ts', 'a.ts'], ['edit', 'old.ts (deleted)', 'old.ts'], ['write', 'new.ts', 'new.ts']]);
  const failed = codexActivity({ type: 'item.completed', item: { id: 'i2', type: 'file_change', changes, status: 'failed' } }, CWD);
  t.true(failed.filter((r) => r.phase === 'ended').every((r) => r.phase === 'ended' && r.status === 'error'));
});

test('opencode: a command that exits non-zero is an error with its exit code; a refused tool is an error with its message', (t) => {
  const bash = opencodeActivity({ type: 'tool_use', part: { tool: 'bash', callID: 'o2', state: { status: 'completed', input: { command: 'false' }, output: '', metadata: { exit: 1 }, time: { start: 0, end: 1000 } } } }, CWD);
  t.like(bash[1], { phase: 'ended', status: 'error', exitCode: 1, at: '1970-01-01T00:00:01.000Z' });
  const refused = opencodeActivity({ type: 'tool_use', part: { tool: 'write', callID: 'o3', state: { status: 'error', input: { filePath: `${CWD}/x` }, error: 'permission denied' } } }, CWD);
  t.like(refused[0], { kind: 'write', title: 'x' });
  t.like(refused[1], { status: 'error', output: 'permission denied' });
});

test('claude: a refused tool is an error; lines that carry no tool call give nothing', (t) => {
  const ended = claudeActivity({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'c9', is_error: true, content: [{ type: 'text', text: 'denied' }] }] } }, CWD);
  t.deepEqual(ended, [{ phase: 'ended', callId: 'c9', status: 'error', output: 'denied' }]);
  t.deepEqual(claudeActivity({ type: 'assistant', message: { content: 'just words' } }, CWD), []);
  t.deepEqual(codexActivity({ type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'hi' } }, CWD), []);
  t.deepEqual(opencodeActivity({ type: 'text', part: { text: 'hi' } }, CWD), []);
});
