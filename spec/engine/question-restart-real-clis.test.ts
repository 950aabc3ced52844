import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { STRICT } from '../helpers/server.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say } from '../fixtures/model-server/script.js';
import type { HarnessName } from '../../domain/workflow.js';

// A question outlives svc (issue 29): a real CLI asks through ask_question, svc is SIGKILLed while
// the question waits (its lifeline ends the CLI with it), and a new svc on the same home keeps the
// run standing Question. The answer, given to the new svc, resumes the agent's session: the
// model's next request holds it, in the conversation the session already had.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const standing = (server: ChildServer, runId: string, want: string, ms: number) =>
  eventually(() => json(`${server.url}/api/runs/${runId}/detail`), (d) => d.standing === want, ms);
const logText = async (server: ChildServer, runId: string): Promise<string> =>
  (await json(`${server.url}/api/runs/${runId}/log?pageSize=200`)).lines.map((l: any) => l.text).join('\n');

// a request's last two messages (the one before it asked, and what it was answered), whatever the API's shape
const lastTurns = (body: unknown): unknown => {
  const b = body as { messages?: unknown[]; input?: unknown[] };
  return (b.messages ?? b.input ?? []).slice(-2);
};

// what may not happen while a question waits: the step ending, the run pausing, the question going
const LEAVES_QUESTION = new Set(['StepSucceeded', 'StepFailed', 'StepInterrupted', 'QuestionWithdrawn', 'RunPaused', 'RunFailed', 'RunSucceeded']);

const answerAfterRestart = async (t: ExecutionContext, harness: HarnessName): Promise<void> => {
  t.timeout(480_000);
  const cli = realCliEnv(harness);
  const home = freshHome();
  writeWorkflow(home, 'real', STRICT);
  const repo = gitRepo();
  const model = await startModelServer([
    callMcp('ask_question', { prompt: 'Which colour?' }),
    callMcp('report_outcome', { outcome: 'success', summary: 'used the colour' }),
    say('Done.'),
  ]);
  t.teardown(() => model.close());
  pointCliAt(harness, cli, model.url);
  let server: ChildServer = await spawnServer(home);
  t.teardown(() => void server.child.kill('SIGKILL'));
  const project = await post(`${server.url}/api/projects`, { name: 'asks', folders: [{ path: repo }] });
  const { runId } = await post(`${server.url}/api/runs`, { project: project.id, goal: 'Pick a colour for GOAL-MARK-3.', workflow: 'real', harness, start: false });
  const { position } = await json(`${server.url}/api/runs/${runId}/detail`);
  t.is((await post(`${server.url}/api/runs/${runId}/control`, { position, action: 'Resume' })).outcome, 'Applied');
  const asked = await standing(server, runId, 'Question', 180_000).catch(async (e: Error) => { throw new Error(`${e.message}\n${await logText(server, runId)}`); });

  await killHard(server);
  server = await spawnServer(home);
  await eventually(() => logText(server, runId), (l) => l.includes('was waiting for an answer when the service stopped'), 60_000);
  t.is((await json(`${server.url}/api/runs/${runId}/detail`)).standing, 'Question', 'the run stands Question after the restart');
  const before = model.scriptedBodies().length;
  const answered = await post(`${server.url}/api/runs/${runId}/answers`, { question: asked.question.id, answer: 'VERMILION-7' });
  t.is(answered.question, asked.question.id, JSON.stringify(answered));
  t.true(answered.delivered, 'the step waits for the answer in the new svc');
  const done = await standing(server, runId, 'Succeeded', 180_000).catch(async (e: Error) => { throw new Error(`${e.message}\n${await logText(server, runId)}`); });
  t.is(done.outcome, 'success');

  const next = JSON.stringify(model.scriptedBodies()[before] ?? null);
  t.true(next.includes('VERMILION-7'), `the model's next request holds the answer: ${next.slice(0, 400)}`);
  t.true(next.includes('GOAL-MARK-3'), 'in the session that asked (its first prompt is in the conversation)');
  const events = (await json(`${server.url}/api/runs/${runId}/history?pageSize=200`)).events as any[];
  const from = events.findIndex((e) => e.type === 'QuestionAsked');
  const to = events.findIndex((e) => e.type === 'QuestionAnswered');
  t.true(from >= 0 && to > from);
  t.deepEqual(events.slice(from, to).filter((e) => LEAVES_QUESTION.has(e.type)).map((e) => e.type), [], 'the run never left Question in between');
  t.is(events.filter((e) => e.type === 'StepStarted').length, 1, 'one step: the answer continued it');
  // on CI's busy lanes opencode once ended with 'Done.' (report_outcome not taken): say what the
  // model was answered after the restart (each request's end holds the last tool result) and the log
  const asWas = async () => [
    ...model.scriptedBodies().slice(before).map((b, i) => `request ${before + i}: ${JSON.stringify(lastTurns(b)).slice(0, 1500)}`),
    '--- run log ---', await logText(server, runId),
  ].join('\n');
  const summary = events.find((e) => e.type === 'StepSucceeded')?.data.summary;
  t.is(summary, 'used the colour', summary === 'used the colour' ? '' : await asWas());
};

test.serial('claude: a question answered after svc was SIGKILLed and restarted resumes the session with the answer', (t) => answerAfterRestart(t, 'claude'));
test.serial('codex: a question answered after svc was SIGKILLed and restarted resumes the session with the answer', (t) => answerAfterRestart(t, 'codex'));
test.serial('opencode: a question answered after svc was SIGKILLed and restarted resumes the session with the answer', (t) => answerAfterRestart(t, 'opencode'));
