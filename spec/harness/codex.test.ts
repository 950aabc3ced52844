// codex against the scripted Responses API server: its apply_patch tool, the in-run MCP tools
// (ask_question answered by the backend, report_outcome recorded), a clean successful end.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, svcSandbox, turnInput, writeCodexConfig } from './sandbox.js';

// In svc's sandbox, as a run's turn is: codex's own sandbox (bubblewrap too) is off inside ours; on
// a machine with bubblewrap installed it answered apply_patch with "Failed to write file".
test('codex writes a file, asks a question, reports an outcome and ends with success', async (t) => {
  t.timeout(150_000);
  const sb = makeSandbox();
  const target = join(sb.repo, 'hello.txt');
  const model = await startModelServer([
    writeFile(target, 'hello from codex\n', 'Writing the file.'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'] }),
    callMcp('report_outcome', { outcome: 'success', summary: 'wrote hello.txt' }),
    say('All done: hello.txt written.'),
  ]);
  const tools = await startRunTools(async () => ({ answer: 'blue-ANSWER-42' }));
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeCodexConfig(sb, model.url);

  const adapters = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  const sandbox = svcSandbox(sb, 'codex', { modelUrl: model.url, runTools: tools.url('run-1') });
  t.teardown(() => sandbox.close());
  const { input, rec } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, {
    prompt: 'Write hello.txt',
    env: { OPENAI_API_KEY: 'sk-test' },
    systemPrompt: 'PERSONA-MARKER: you are terse.',
    sandbox,
  });
  const turn = adapters.codex.startTurn(input);
  t.false(turn.send('mid-turn'), 'codex takes no message mid-turn');
  const result = await turn.result;

  t.is(result.outcome, 'success', result.summary + '\n' + rec.logs.join('\n'));
  t.is(result.summary, 'All done: hello.txt written.');
  t.is(readFileSync(target, 'utf8'), 'hello from codex\n');
  t.deepEqual(tools.questions.map((q) => q.question), [{ prompt: 'Which colour?', options: ['red', 'blue'], allowText: true }]);
  t.deepEqual(tools.outcomes, [{ runId: 'run-1', outcome: { outcome: 'success', summary: 'wrote hello.txt' } }]);
  const bodies = bodiesText(model.scriptedBodies());
  // codex defers MCP tools behind tool_search: the scripted model searches, then calls
  t.true(bodies.length >= 4);
  const answered = bodies.findIndex((b) => b.includes('The user answered: blue-ANSWER-42'));
  t.true(answered > 1, 'the answer went back to the model');
  t.true(bodies[answered - 1].includes('"tool_search_output"'), 'the tool was loaded through tool_search');
  t.true(bodies[0].includes('PERSONA-MARKER'), 'developer instructions passed');
  t.true(bodies.some((b) => b.includes('"namespace":"mcp__svc"')), 'in-run tools offered as mcp__svc');
  t.truthy(result.sessionId);
  t.deepEqual(rec.sessions, [result.sessionId!]);
  t.true((result.usage?.output_tokens ?? 0) > 0);
  t.true(rec.messages.includes('All done: hello.txt written.'));
  t.true(rec.logs.some((l) => l.startsWith('file change')));
  t.true(rec.logs.some((l) => l.startsWith('tool svc.ask_question')));
});

test('codex resumes a thread with exec resume and the earlier conversation', async (t) => {
  t.timeout(150_000);
  const sb = makeSandbox();
  const model = await startModelServer([say('First turn done.'), say('Second turn done.')]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeCodexConfig(sb, model.url);
  const adapters = createAdapters({ commands: { codex: cliBin('codex') }, env: sb.env });
  const env = { OPENAI_API_KEY: 'sk-test' };
  const first = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'FIRST-PROMPT', env });
  const r1 = await adapters.codex.startTurn(first.input).result;
  t.is(r1.outcome, 'success', r1.summary);
  const second = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'SECOND-PROMPT', env, resumeSession: r1.sessionId });
  const r2 = await adapters.codex.startTurn(second.input).result;
  t.is(r2.outcome, 'success', r2.summary + second.rec.logs.join('\n'));
  t.is(r2.summary, 'Second turn done.');
  t.is(r2.sessionId, r1.sessionId);
  const last = bodiesText(model.scriptedBodies()).at(-1)!;
  t.true(last.includes('FIRST-PROMPT') && last.includes('SECOND-PROMPT'), 'the resumed request carries the earlier turn');
  // codex remembers no flags across resume: the MCP server and sandbox must be passed again
  t.true(last.includes('list_mcp_resources'), 'the in-run MCP server is configured on resume');
  t.true(last.includes('workspace-write'), 'the sandbox mode applies on resume');
});
