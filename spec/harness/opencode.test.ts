// opencode against the scripted server (its bundled anthropic provider with a baseURL): its own
// write tool, the in-run MCP tools (ask_question answered by the backend, report_outcome
// recorded), a clean successful end, and resume with --session.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { bodiesText, cliBin, makeSandbox, opencodeTestEnv, turnInput, writeOpencodeConfig } from './sandbox.js';

test('opencode writes a file, asks a question, reports an outcome and ends with success', async (t) => {
  t.timeout(150_000);
  const sb = makeSandbox();
  const target = join(sb.repo, 'hello.txt');
  const model = await startModelServer([
    writeFile(target, 'hello from opencode\n', 'Writing the file.'),
    callMcp('ask_question', { prompt: 'Which colour?', options: ['red', 'blue'] }),
    callMcp('report_outcome', { outcome: 'success', summary: 'wrote hello.txt' }),
    say('All done: hello.txt written.'),
  ]);
  const tools = await startRunTools(async () => ({ answer: 'blue-ANSWER-42' }));
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeOpencodeConfig(sb, model.url);

  const adapters = createAdapters({ commands: { opencode: cliBin('opencode') }, env: sb.env });
  const { input, rec } = turnInput(sb, { url: tools.url('run-1'), token: tools.token }, {
    prompt: 'Write hello.txt',
    env: opencodeTestEnv,
    systemPrompt: 'PERSONA-MARKER: you are terse.',
  });
  const turn = adapters.opencode.startTurn(input);
  t.false(turn.send('mid-turn'), 'opencode takes no message mid-turn');
  const result = await turn.result;

  t.is(result.outcome, 'success', result.summary + '\n' + rec.logs.join('\n'));
  t.is(result.summary, 'All done: hello.txt written.');
  t.is(readFileSync(target, 'utf8'), 'hello from opencode\n');
  t.deepEqual(tools.questions.map((q) => q.question), [{ prompt: 'Which colour?', options: ['red', 'blue'], allowText: true }]);
  t.deepEqual(tools.outcomes, [{ runId: 'run-1', outcome: { outcome: 'success', summary: 'wrote hello.txt' } }]);
  const bodies = bodiesText(model.scriptedBodies());
  t.is(bodies.length, 4);
  t.true(bodies[2].includes('The user answered: blue-ANSWER-42'), 'the answer went back to the model');
  t.false(bodies[1].includes('blue-ANSWER-42'));
  t.true(bodies[0].includes('PERSONA-MARKER'), 'persona prepended to the prompt');
  t.true(bodies[0].includes('svc_ask_question'), 'in-run tools offered');
  t.truthy(result.sessionId);
  t.deepEqual(rec.sessions, [result.sessionId!]);
  t.is(typeof result.costUsd, 'number');
  t.true((result.usage?.output_tokens ?? 0) > 0);
  t.true(rec.messages.includes('All done: hello.txt written.'));
  t.true(rec.logs.some((l) => l.startsWith('tool write completed')));
  t.true(rec.logs.some((l) => l.startsWith('tool svc_ask_question completed')));
});

test('opencode resumes a session with --session and the earlier conversation', async (t) => {
  t.timeout(150_000);
  const sb = makeSandbox();
  const model = await startModelServer([say('First turn done.'), say('Second turn done.')]);
  const tools = await startRunTools();
  t.teardown(async () => (await model.close(), await tools.close(), sb.cleanup()));
  writeOpencodeConfig(sb, model.url);
  const adapters = createAdapters({ commands: { opencode: cliBin('opencode') }, env: sb.env });
  const runTools = { url: tools.url('run-1'), token: tools.token };
  const first = turnInput(sb, runTools, { prompt: 'FIRST-PROMPT', env: opencodeTestEnv });
  const r1 = await adapters.opencode.startTurn(first.input).result;
  t.is(r1.outcome, 'success', r1.summary);
  const second = turnInput(sb, runTools, { prompt: 'SECOND-PROMPT', env: opencodeTestEnv, resumeSession: r1.sessionId });
  const r2 = await adapters.opencode.startTurn(second.input).result;
  t.is(r2.outcome, 'success', r2.summary);
  t.is(r2.summary, 'Second turn done.');
  t.is(r2.sessionId, r1.sessionId);
  const last = bodiesText(model.scriptedBodies()).at(-1)!;
  t.true(last.includes('FIRST-PROMPT') && last.includes('SECOND-PROMPT'), 'the resumed request carries the earlier turn');
});
