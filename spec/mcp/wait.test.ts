import test from 'ava';
import { FakeService } from './helpers/fake-service.js';
import { FakeSettings } from './helpers/fake-settings.js';
import { connect, startServer } from './helpers/server.js';
import { call, json } from './helpers/call.js';

// wait_for_run: many waiters on one run wake on one change; an ended run answers at once; the time
// running out answers Nothing. (Wake latency itself is measured in bench/, not asserted here.)

const until = async (cond: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('200 concurrent waiters on one run all wake after one change', async (t) => {
  const api = new FakeService();
  const srv = await startServer(api, new FakeSettings());
  const client = await connect(srv);
  t.teardown(async () => { await client.close(); await srv.close(); });
  api.put('r1', 'Running');
  const waits = Array.from({ length: 200 }, () => call(client, 'wait_for_run', { run: 'r1', timeout: 120 }));
  await until(() => api.waiters('r1') === 200);
  const changedAt = Date.now();
  api.put('r1', 'Paused');
  const answers = await Promise.all(waits);
  const took = Date.now() - changedAt;
  t.true(took < 2000, `all waiters answered ${took} ms after the change`);
  t.is(answers.length, 200);
  for (const a of answers) {
    const body = json<{ changed: string; run: { standing: string } }>(a);
    t.is(body.changed, 'Standing');
    t.is(body.run.standing, 'Paused');
  }
  t.is(api.waiters('r1'), 0);
});

test('an ended run answers AlreadyEnded at once; a question answers Question', async (t) => {
  const api = new FakeService();
  const srv = await startServer(api, new FakeSettings());
  const client = await connect(srv);
  t.teardown(async () => { await client.close(); await srv.close(); });
  api.put('done', 'Succeeded');
  t.is(json(await call(client, 'wait_for_run', { run: 'done' })).changed, 'AlreadyEnded');
  api.put('r2', 'Running');
  const waiting = call(client, 'wait_for_run', { run: 'r2' });
  await until(() => api.waiters('r2') === 1);
  api.put('r2', 'Question');
  t.is(json(await waiting).changed, 'Question');
});

test('the default timeout is 60 s; the time running out answers Nothing', async (t) => {
  const api = new FakeService();
  const srv = await startServer(api, new FakeSettings());
  const client = await connect(srv);
  t.teardown(async () => { await client.close(); await srv.close(); });
  api.put('r1', 'Running');
  const started = Date.now();
  t.is(json(await call(client, 'wait_for_run', { run: 'r1', timeout: 1 })).changed, 'Nothing');
  t.true(Date.now() - started >= 900);
  const waiting = call(client, 'wait_for_run', { run: 'r1' });
  await until(() => api.waiters('r1') === 1);
  t.deepEqual(api.calls.filter((c) => c.method === 'waitForRun').map((c) => c.args[1]), [1000, 60_000]);
  api.put('r1', 'Failed');
  t.is(json(await waiting).changed, 'Ended');
});

test('a waiter whose client goes away stops waiting', async (t) => {
  const api = new FakeService();
  const srv = await startServer(api, new FakeSettings());
  const client = await connect(srv);
  t.teardown(() => srv.close());
  api.put('r1', 'Running');
  const waiting = call(client, 'wait_for_run', { run: 'r1', timeout: 300 }).catch(() => 'gone');
  await until(() => api.waiters('r1') === 1);
  await client.close();
  await until(() => api.waiters('r1') === 0);
  t.is(api.waiters('r1'), 0);
  await waiting;
});
