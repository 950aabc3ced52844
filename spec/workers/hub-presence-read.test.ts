import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { tempDir } from '../helpers/env.js';
import { Hub } from '../../lib/workers/hub.js';
import { PRESENCE_BUCKET } from '../../lib/workers/nats-config.js';
import { encode } from '../../lib/workers/messages.js';

// The hub reads presence from the bucket's stream (its subjects and their last values), with no
// consumer per read: a KV key listing opened one each time, and one opened while the connection
// closed never ended, its heartbeat timer keeping `svc serve` alive after SIGTERM. Here the read
// against a real nats-server: a heartbeat shows, a deleted key or a lapsed one does not, and once
// the hub is closing a read says so at once.

const TTL_MS = 1500;

test('presence: a put heartbeat shows, a deleted or lapsed one does not; while the hub closes, a read says it is stopping', async (t) => {
  const dir = tempDir('svc-hub-');
  const hub = await Hub.start({ dir, listen: '127.0.0.1:-1', presenceTtlMs: TTL_MS, onJoin: async () => ({ ok: false, reason: 'not here' }) }, []);
  let closed = false;
  t.teardown(() => (closed ? undefined : hub.close()));
  t.deepEqual(await hub.present(), [], 'no worker yet');

  // the hub's own key writes as a worker would (a worker may write only its own key: spec/workers/presence.test.ts)
  const seed = new TextEncoder().encode(readFileSync(join(dir, 'hub.nk'), 'utf8').trim());
  const nc = await connect({ servers: hub.url, authenticator: nkeyAuthenticator(seed) });
  t.teardown(() => nc.close());
  const kv = await new Kvm(nc).open(PRESENCE_BUCKET);
  await kv.put('w-one', encode({ slots: 2, busy: 1 }));
  await kv.put('w-two', encode({ slots: 1, busy: 0 }));
  await kv.put('w-two', encode({ slots: 1, busy: 1 }));
  const sorted = async () => (await hub.present()).sort((a, b) => a.workerId.localeCompare(b.workerId));
  t.deepEqual(await sorted(), [{ workerId: 'w-one', heartbeat: { slots: 2, busy: 1 } }, { workerId: 'w-two', heartbeat: { slots: 1, busy: 1 } }], 'each key once, its last value');

  await kv.delete('w-one');
  t.deepEqual((await hub.present()).map((p) => p.workerId), ['w-two'], 'a deleted key is not present');
  await kv.put('w-bad', new TextEncoder().encode('not json'));
  t.deepEqual((await hub.present()).map((p) => p.workerId), ['w-two'], 'a value that is no heartbeat is not present');

  // no heartbeat for longer than the time to live: gone
  for (let i = 0; i < 100 && (await hub.present()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  t.deepEqual(await hub.present(), [], 'lapsed heartbeats are not present');

  t.is(hub.connection(), null);
  const closing = hub.close();
  closed = true;
  t.like(hub.connection(), { why: 'the hub is stopping' });
  await t.throwsAsync(hub.present(), { message: /the hub is stopping/ });
  await closing;
});
