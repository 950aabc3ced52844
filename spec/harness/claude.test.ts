// claude against the scripted Anthropic server: its own Write tool, the in-run MCP tools
// (ask_question answered by the backend, report_outcome recorded), a clean successful end.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, turnInput } from './sandbox.js';

test('claude writes a file, asks a question, reports an outcome and ends with success', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const target = join(sb.repo, 'hello.txt');
  const model = await startModelServer([
    writeFile(target, 'hello from claude\n', 'Writing the file.'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'] }),
    callMcp('report_outcome', { outcome: 'success', summary: 'wrote hello.txt' }),
    say('All done: hello.txt written.'),
  ]);
  const tools = await startRunTools(async () => ({ answer: 'blue-ANSWER-42' }));
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));

  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const { input, rec } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, {
    prompt: 'Write hello.txt',
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' },
    systemPrompt: 'PERSONA-MARKER: you are terse.',
  });
  const result = await adapters.claude.startTurn(input).result;

  t.is(result.outcome, 'success', result.summary);
  t.is(result.summary, 'All done: hello.txt written.');
  t.is(readFileSync(target, 'utf8'), 'hello from claude\n');
  t.deepEqual(tools.questions.map((q) => q.question), [{ prompt: 'Which colour?', options: ['red', 'blue'], allowText: true }]);
  t.deepEqual(tools.outcomes, [{ runId: 'run-1', outcome: { outcome: 'success', summary: 'wrote hello.txt' } }]);
  const bodies = bodiesText(model.scriptedBodies());
  t.is(bodies.length, 4);
  t.true(bodies[2].includes('The user answered: blue-ANSWER-42'), 'the answer went back to the model');
  t.false(bodies[1].includes('blue-ANSWER-42'));
  t.true(bodies[0].includes('PERSONA-MARKER'), 'system prompt appended');
  t.true(bodies[0].includes('mcp__svc__ask_question'), 'in-run tools offered');
  t.truthy(result.sessionId);
  t.deepEqual(rec.sessions, [result.sessionId!]);
  t.is(typeof result.costUsd, 'number');
  t.true((result.usage?.output_tokens ?? 0) > 0);
  t.true(rec.messages.includes('All done: hello.txt written.'));
  t.true(rec.logs.some((l) => l.startsWith('tool Write')));
  t.true(rec.logs.length >= 6);
  t.false(existsSync(join(sb.repo, '.mcp.json')), 'MCP config passed on the command line, not written into the worktree');
});

test('claude resumes a session with --resume and the earlier conversation', async (t) => {
  t.timeout(120_000);
  const sb = makeSandbox();
  const model = await startModelServer([say('First turn done.'), say('Second turn done.')]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  const adapters = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env });
  const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
  const first = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'FIRST-PROMPT', env });
  const r1 = await adapters.claude.startTurn(first.input).result;
  t.is(r1.outcome, 'success');
  const second = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'SECOND-PROMPT', env, resumeSession: r1.sessionId });
  const r2 = await adapters.claude.startTurn(second.input).result;
  t.is(r2.outcome, 'success');
  t.is(r2.summary, 'Second turn done.');
  const last = bodiesText(model.scriptedBodies()).at(-1)!;
  t.true(last.includes('FIRST-PROMPT') && last.includes('SECOND-PROMPT'), 'the resumed request carries the earlier turn');
});
