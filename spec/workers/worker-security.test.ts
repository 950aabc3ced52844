import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { inboxOf } from '../../lib/workers/nats-config.js';
import { claimStep } from '../../lib/workers/step-queue.js';
import { eventually } from '../helpers/env.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control } from '../helpers/steer.js';

// Whose results count (docs/workers.md, Security), through a real hub and nats-server: the test
// speaks as the workers with their own keys. Worker A claims the step pinned to it. Worker B,
// publishing a result for A's step on its own subject (the only one the server lets it use), is
// refused by the hub, which takes a result only from the worker holding the step's current claim;
// on A's subject the server refuses it. A message of A's still in SVC_OUT when A is revoked (put
// there here with the hub's own key, as if sent just before the revocation) is refused too. Each
// refusal is recorded StepMessageDiscarded, and the step goes on.

// a connection made while the server reads its reloaded config (a token was just made) may be
// refused for that moment: tried again a few times
const as = async (url: string, seed: string, workerId?: string): Promise<NatsConnection> => {
  for (let tries = 1; ; tries++) {
    try {
      return await connect({ servers: url, authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)), ...(workerId ? { inboxPrefix: inboxOf(workerId) } : {}) });
    } catch (e) {
      if (tries >= 5) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
};
const result = (token: number) => JSON.stringify({ token, kind: 'result', result: { outcome: 'success', summary: 'done, says who?' }, chunks: 0 });

test('a result from a worker not holding the claim, and one from a revoked worker, are refused and recorded; the step goes on', async (t) => {
  t.timeout(120_000);
  realCliEnv('claude');
  process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const tokens = await Promise.all(['a', 'b'].map(async (name) => (await s.post('/api/workers/tokens', { name })).body as { token: string; hub: string }));
  const [a, b] = tokens.map(({ token }) => ({ id: token.split('.')[0]!, seed: token.split('.')[1]! }));
  const url = tokens[1]!.hub;
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: a!.id }))).status, 200);
  const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Held by worker a.', workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');

  // worker a claims its step as `svc worker join` does: a pull from its own consumer, then the hub's fence
  const wa = await as(url, a!.seed, a!.id);
  t.teardown(() => wa.close().catch(() => undefined));
  const claim = await eventually(() => claimStep(wa, 2000, a!.id).catch(() => null), (c) => c !== null, 60_000);
  const claimed = JSON.parse((await wa.request(`svc.w.${a!.id}.claim`, JSON.stringify({ stepId: claim!.stepId, token: claim!.token }))).string());
  t.true(claimed.ok, JSON.stringify(claimed));
  const stepId = claim!.stepId;
  const discarded = () => s.service.core.journal.read('dispatch').filter((e) => e.type === 'StepMessageDiscarded' && (e.data as { kind: string }).kind === 'result').map((e) => e.data as Record<string, unknown>);

  // worker b: on its own subject, a result for a's step with a's token is refused by the hub
  const wb = await as(url, b!.seed, b!.id);
  t.teardown(() => wb.close().catch(() => undefined));
  await jetstream(wb).publish(`svc.w.${b!.id}.out.${stepId}`, result(claim!.token), { msgID: `${stepId}.b.1` });
  const byB = await eventually(async () => discarded(), (xs) => xs.length === 1, 30_000);
  t.like(byB[0], { stepId, workerId: b!.id, token: claim!.token, reason: `claim ${claim!.token} of ${b!.id} is not the current one (${claim!.token} of ${a!.id})` });
  // on a's subject the server itself refuses it
  await t.throwsAsync(jetstream(wb).publish(`svc.w.${a!.id}.out.${stepId}`, result(claim!.token), { msgID: `${stepId}.b.2`, timeout: 3000 }));

  // a is revoked; a result of a's that was still in the stream is refused
  t.is((await s.post(`/api/workers/${a!.id}/revoke`, {})).status, 200);
  const hub = await as(url, readFileSync(join(s.home, 'nats', 'hub.nk'), 'utf8').trim());
  t.teardown(() => hub.close());
  await jetstream(hub).publish(`svc.w.${a!.id}.out.${stepId}`, result(claim!.token), { msgID: `${stepId}.a.late` });
  const byA = await eventually(async () => discarded(), (xs) => xs.length === 2, 30_000);
  t.like(byA[1], { stepId, workerId: a!.id, token: claim!.token, reason: `worker ${a!.id} is revoked` });
  // nothing of either landed: the step was not ended by them
  const d = s.service.workers.dispatches.current.get(stepId);
  t.is(d?.ended, undefined);
  t.false((await s.service.core.journal.read(`run:${runId}`)).some((e) => e.type === 'StepSucceeded'));
});
