import '../helpers/env.js';
import test from 'ava';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, hang, say } from '../fixtures/model-server/script.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { eventually, freshHome } from '../helpers/env.js';
import { chatOver, pointSupervisorsAtModel, types, type ChatEntry } from './live-kit.js';

// SIGKILL of the real `svc serve` during a supervisor turn on the real claude CLI: no chat entry
// is lost, and the next start records the turn as interrupted and runs it again over the same
// message.

const over = (s: ChildServer) => {
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(s.url + path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { send, get: (path: string) => send('GET', path) };
};

test('SIGKILL of the server mid-turn: no chat entry lost; the turn is recorded interrupted and runs again', async (t) => {
  t.timeout(400_000);
  const model = await startModelServer([callMcp('list_projects', {}, 'Working on it.'), hang()]);
  pointSupervisorsAtModel(model.url);
  const home = freshHome();
  const first = await spawnServer(home);
  let second: ChildServer | undefined;
  t.teardown(async () => {
    for (const s of [first, second]) if (s && s.child.exitCode === null && s.child.signalCode === null) await killHard(s);
    await model.close();
  });
  const a = over(first);
  t.is((await a.send('PUT', '/api/settings', { _tag: 'Supervisors', enabled: true })).status, 200);
  const global = (await a.get('/api/supervisors')).body[0].id as string;
  t.is((await a.send('POST', `/api/supervisors/${global}/chat`, { text: 'PLEASE do the thing' })).status, 200);
  await eventually(() => chatOver(a.get)(global), (c) => c.some((e) => e.type === 'SupervisorReplied'), 150_000);
  await model.waitForScripted(2); // the model is "thinking": the turn is in flight
  const before = await chatOver(a.get)(global);
  await killHard(first);
  t.deepEqual(types(before), ['PersonWrote', 'TurnStarted', 'SupervisorReplied']);

  model.push(say('Recovered and done.'));
  second = await spawnServer(home);
  const b = over(second);
  const after: ChatEntry[] = await eventually(() => chatOver(b.get)(global), (c) => c.some((e) => e.type === 'TurnEnded'), 150_000);
  t.deepEqual(after.slice(0, 3), before, 'every entry written before the kill is still there');
  t.deepEqual(types(after).slice(3), ['TurnInterrupted', 'TurnStarted', 'SupervisorReplied', 'TurnEnded']);
  t.is(after[3]!.data.turnId, before[1]!.data.turnId, 'the cut-off turn is the one recorded as interrupted');
  t.not(after[4]!.data.turnId, before[1]!.data.turnId, 'and a new turn runs it again');
  t.true(after[4]!.data.upTo >= 1, 'over the same message');
  t.is(after[5]!.data.text, 'Recovered and done.');
  const retried = JSON.stringify(model.scriptedBodies().at(-1));
  t.true(retried.includes('PLEASE do the thing'), 'the message reaches the model again');
  t.true(retried.includes('Working on it.'), 'the reply written before the kill is in the retried prompt');
});
