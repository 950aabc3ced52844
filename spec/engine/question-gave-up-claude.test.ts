import '../helpers/env.js';
import test from 'ava';
import { realCliServer, REAL } from '../helpers/real-run.js';
import { callMcp, say } from '../fixtures/model-server/script.js';
import { eventually } from '../helpers/env.js';
import { detail, history, untilStanding } from '../helpers/steer.js';

// When the CLI stops waiting for ask_question anyway, the question stays open (issue 29). claude's
// no-progress limit is shortened to 5 s (it checks every 30 s), shorter than the 15 s between svc's
// progress notifications, so the real claude gives up on the call; its turn then ends. The run
// must stand Question until the answer, which resumes the same session.

const LEAVES_QUESTION = new Set(['StepSucceeded', 'StepFailed', 'StepInterrupted', 'QuestionWithdrawn', 'RunPaused', 'RunFailed', 'RunSucceeded']);

test('claude gives up on a waiting ask_question: the run stays Question and the answer resumes its session', async (t) => {
  t.timeout(360_000);
  process.env['CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT'] = '5000';
  t.teardown(() => delete process.env['CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT']);
  const { s, model } = await realCliServer(t, 'claude', { real: REAL });
  model.push(callMcp('ask_question', { prompt: 'Which colour?' }));
  model.push(say('No answer yet.'));
  model.push(callMcp('report_outcome', { outcome: 'success', summary: 'used the colour' }));
  model.push(say('Done.'));
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Pick a colour for GOAL-MARK-5.', workflow: 'real', harness: 'claude' })).body.runId as string;
  const asked = await untilStanding(s, runId, 'Question', 150_000);
  const log = async () => (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => l.text).join('\n');
  await eventually(log, (l) => l.includes('the turn ended with its question open'), 150_000);
  t.true(JSON.stringify(model.scriptedBodies()).includes('sent no response or progress'), 'claude stopped waiting for the call');
  t.is((await detail(s, runId)).standing, 'Question', 'the turn ended, the question did not');
  const before = model.scriptedBodies().length;
  const answered = await s.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: 'VERMILION-9' });
  t.is(answered.status, 200, JSON.stringify(answered.body));
  t.true(answered.body.delivered);
  await untilStanding(s, runId, 'Succeeded', 150_000);
  const next = JSON.stringify(model.scriptedBodies()[before] ?? null);
  t.true(next.includes('VERMILION-9'), 'the model\'s next request holds the answer');
  t.true(next.includes('GOAL-MARK-5'), 'in the session that asked');
  const events = await history(s, runId);
  const from = events.findIndex((e) => e.type === 'QuestionAsked');
  const to = events.findIndex((e) => e.type === 'QuestionAnswered');
  t.deepEqual(events.slice(from, to).filter((e) => LEAVES_QUESTION.has(e.type)).map((e) => e.type), [], 'the run never left Question in between');
  t.is(events.find((e) => e.type === 'StepSucceeded')?.data.summary, 'used the colour');
});
