import '../helpers/env.js';
import test from 'ava';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node';
import { tempDir } from '../helpers/env.js';
import { jetstreamManager } from '@nats-io/jetstream';
import { inboxOf, STEP_STREAM } from '../../lib/workers/nats-config.js';
import { startNatsServer } from '../../lib/workers/nats-server.js';
import { claimStep, openStepQueue } from '../../lib/workers/step-queue.js';

// The step queue's JetStream mechanics on a real nats-server with the hub's own config (the
// engine does not dispatch through it yet: docs/workers.md). Two workers with their own keys and
// permissions: a claim's lease holds while it is renewed, a claimer that dies without finishing
// loses the step to the other worker with the next delivery number (the fencing token), and once
// the last delivery lapses the hub hears the step was given up.

const ACK_WAIT_MS = 1500;

const user = () => nkeys.createUser();
const as = (url: string, seed: Uint8Array, workerId?: string): Promise<NatsConnection> =>
  connect({ servers: url, authenticator: nkeyAuthenticator(seed), ...(workerId ? { inboxPrefix: inboxOf(workerId) } : {}) });

test('dispatch once per step id; a renewed lease holds; a dead claimer loses the step to the other worker with token 2; after the last delivery the step is given up', async (t) => {
  const hubKey = user();
  const [a, b] = [user(), user()];
  const server = await startNatsServer(join(tempDir('svc-nats-'), 'nats'), '127.0.0.1:-1', {
    hubKey: hubKey.getPublicKey(), workers: [{ workerId: 'wa', publicKey: a.getPublicKey() }, { workerId: 'wb', publicKey: b.getPublicKey() }],
  });
  const hub = await as(server.url, hubKey.getSeed());
  try {
    const queue = await openStepQueue(hub, { ackWaitMs: ACK_WAIT_MS, maxDeliver: 2, maxAckPending: 4 });
    const givenUp: string[] = [];
    const heard = new Promise<void>((resolve) => queue.onGivenUp((id) => { givenUp.push(id); resolve(); return true; }));
    const first = await queue.dispatch('s1', new TextEncoder().encode('{"step":"s1"}'));
    const again = await queue.dispatch('s1', new TextEncoder().encode('{"step":"s1"}'));
    t.deepEqual([first.duplicate, again.duplicate, again.seq], [false, true, first.seq]);

    const wa = await as(server.url, a.getSeed(), 'wa');
    const wb = await as(server.url, b.getSeed(), 'wb');
    const claimA = await claimStep(wa, 5000);
    t.like(claimA, { stepId: 's1', token: 1 });
    t.is(new TextDecoder().decode(claimA!.job), '{"step":"s1"}');

    // A renews its lease well inside ack_wait: B, pulling for longer than ack_wait, gets nothing
    const renewing = setInterval(() => claimA!.renew(), ACK_WAIT_MS / 5);
    const meanwhile = await claimStep(wb, ACK_WAIT_MS * 2);
    clearInterval(renewing);
    t.is(meanwhile, null);

    // A dies without finishing: B gets the same step with the next delivery number
    await wa.close();
    const claimB = await claimStep(wb, ACK_WAIT_MS * 4);
    t.like(claimB, { stepId: 's1', token: 2 });

    // B stops renewing too: that was the last delivery. The server finds it out when it would
    // deliver it again, that is while a worker pulls (an idle worker always does): the hub hears
    // the step was given up, and the puller is not given it
    await wb.close();
    const wa2 = await as(server.url, a.getSeed(), 'wa');
    const pulling = claimStep(wa2, ACK_WAIT_MS * 4);
    await heard;
    t.is(await pulling, null);
    await wa2.close();
    t.deepEqual(givenUp, ['s1']);
  } finally {
    await hub.close();
    await server.stop();
  }
});

test("a worker may claim from the shared queue, but not dispatch, nor read the hub's streams", async (t) => {
  const hubKey = user();
  const a = user();
  const server = await startNatsServer(join(tempDir('svc-nats-'), 'nats'), '127.0.0.1:-1', { hubKey: hubKey.getPublicKey(), workers: [{ workerId: 'wa', publicKey: a.getPublicKey() }] });
  const hub = await as(server.url, hubKey.getSeed());
  try {
    await openStepQueue(hub, { ackWaitMs: ACK_WAIT_MS, maxDeliver: 2, maxAckPending: 4 });
    const wa = await as(server.url, a.getSeed(), 'wa');
    t.is(await claimStep(wa, 1000), null);
    const errors: string[] = [];
    void (async () => { for await (const st of wa.status()) if (st.type === 'error') errors.push(String(st.error)); })();
    wa.publish('svc.steps.s9', 'a step of its own');
    await wa.flush();
    await new Promise((r) => setTimeout(r, 300));
    t.true(errors.some((e) => /Permissions Violation for Publish to "svc\.steps\.s9"/.test(e)), errors.join('\n'));
    await wa.close();
  } finally {
    await hub.close();
    await server.stop();
  }
});

// The advisory names only the message's sequence, and a hub restarted after the dispatch kept
// nothing of it in memory: the next hub hears of the step from the advisory kept in the stream
// SVC_GIVEN_UP (published while no hub was connected at all) and reads the step off the message.
test('a step given up while no hub listens is heard by the next hub, matched without the dispatching hub', async (t) => {
  t.timeout(60_000);
  const hubKey = user();
  const a = user();
  const server = await startNatsServer(join(tempDir('svc-nats-'), 'nats'), '127.0.0.1:-1', { hubKey: hubKey.getPublicKey(), workers: [{ workerId: 'wa', publicKey: a.getPublicKey() }] });
  try {
    const o = { ackWaitMs: ACK_WAIT_MS, maxDeliver: 2, maxAckPending: 4 };
    const first = await as(server.url, hubKey.getSeed());
    const queue = await openStepQueue(first, o);
    await queue.dispatch('s-other', new TextEncoder().encode('{}'), 'wa');
    const { seq } = await queue.dispatch('s7', new TextEncoder().encode('{"step":"s7"}'), 'wa');
    await first.close();

    // the worker claims s-other and finishes it; s7 is claimed twice and never finished, and the
    // server finds out its last delivery lapsed while the worker pulls again: no hub is connected
    const claims: { stepId: string; token: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const wa = await as(server.url, a.getSeed(), 'wa');
      const c = await claimStep(wa, ACK_WAIT_MS * 3, 'wa');
      if (c) claims.push({ stepId: c.stepId, token: c.token });
      if (c?.stepId === 's-other') c.done();
      await wa.flush();
      await wa.close();
    }
    t.deepEqual(claims, [{ stepId: 's-other', token: 1 }, { stepId: 's7', token: 1 }, { stepId: 's7', token: 2 }]);

    const next = await as(server.url, hubKey.getSeed());
    t.teardown(() => next.close());
    const givenUp: string[] = [];
    const again = await openStepQueue(next, o);
    const heard = new Promise<void>((resolve) => again.onGivenUp((id) => { givenUp.push(id); resolve(); return true; }));
    await heard;
    t.deepEqual(givenUp, ['s7']);
    // and out of the work queue
    const jsm = await jetstreamManager(next);
    t.is(await jsm.streams.getMessage(STEP_STREAM, { seq }).then((m) => m?.subject ?? null, () => null), null);
  } finally {
    await server.stop();
  }
});
