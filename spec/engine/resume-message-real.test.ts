import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say } from '../fixtures/model-server/script.js';
import { pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { STRICT, testServer } from '../helpers/server.js';
import { control, history, untilStanding } from '../helpers/steer.js';
import type { HarnessName } from '../../domain/workflow.js';

// A message sent with `Resume` while a turn runs must reach the model. claude takes it mid-turn
// (stdin); codex and opencode cannot, so the step's session continues with it once the turn ends,
// before the step's outcome is accepted. The scripted model holds its first answer until the
// message has been sent, and records every request it gets.

const NOTE = 'Please indent with tabs (note 7731).';

const resumeMidTurn = async (t: ExecutionContext, harness: HarnessName): Promise<void> => {
  t.timeout(240_000);
  const cli = realCliEnv(harness);
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const model = await startModelServer([
    { kind: 'reply', text: 'Working on it.', gate },
    callMcp('report_outcome', { outcome: 'success', summary: 'indented with tabs as asked' }),
    say('Done.'),
  ]);
  t.teardown(() => (release(), model.close()));
  pointCliAt(harness, cli, model.url);
  const s = await testServer({ workflows: { strict: STRICT } });
  t.teardown(() => s.close());
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Tidy the code.', workflow: 'strict', harness, start: false })).body.runId as string;
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  await model.waitForScripted(1);

  const sent = (await s.post(`/api/runs/${runId}/messages`, { text: NOTE, delivery: 'Resume' })).body;
  if (harness === 'claude') t.like(sent, { delivered: true, detail: null });
  else t.regex(sent.detail, /continues with it/, `${harness} cannot take it mid-turn: held for the step`);
  release();

  const done = await untilStanding(s, runId, 'Succeeded', 180_000).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- run log ---\n${log}`);
  });
  t.is(done.outcome, 'success');
  const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
  t.false(bodies[0]!.includes('note 7731'), 'the first request was made before the message');
  t.true(bodies.slice(1).some((b) => b.includes('note 7731')), 'the message reached the model');

  const events = await history(s, runId);
  const types = events.map((e) => e.type);
  // what a failure below needs: each request the model got (scripted or a side one, and what it carried last), and the run's events
  const asked = () => model.requests.map((r, i) => `${i} ${r.scripted ? 'scripted' : 'side'}: ${JSON.stringify(r.body).slice(-300)}`).join('\n');
  const why = (what: string) => `${what}\n--- events ---\n${types.join(' ')}\n--- model requests ---\n${asked()}`;
  t.is(types.filter((x) => x === 'StepStarted').length, 1, why('one step: the message continued it, it did not open another'));
  const delivered = events.findIndex((e) => e.type === 'MessageDelivered');
  t.true(delivered > 0, 'the message is recorded as delivered');
  t.true(events.findIndex((e) => e.type === 'OutcomeReported') > delivered, why('the outcome the agent reported came after it saw the message'));
  t.is(events.find((e) => e.type === 'StepSucceeded').data.summary, 'indented with tabs as asked');
  t.false(types.includes('MessageUndelivered'));
  if (harness !== 'claude') {
    const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines;
    t.true(log.some((l: any) => l.source === 'service' && l.text.includes('continuing the session with 1 message')));
  }
};

test.serial('Resume during a turn on the real claude CLI: the message reaches the model mid-turn', (t) => resumeMidTurn(t, 'claude'));
test.serial('Resume during a turn on the real codex CLI: the session continues with the message before the outcome', (t) => resumeMidTurn(t, 'codex'));
test.serial('Resume during a turn on the real opencode CLI: the session continues with the message before the outcome', (t) => resumeMidTurn(t, 'opencode'));
